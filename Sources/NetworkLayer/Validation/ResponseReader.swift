import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns one HTTP response into the endpoint's value: validation, then decoding or the
/// endpoint's empty value.
///
/// Every error it throws has been scrubbed of the secrets the request carried (see
/// ``RequestSecrets``), because errors end up in descriptions and logs, and a server may echo
/// the request.
enum ResponseReader {
  static func read<Response>(
    _ body: Data,
    response: HTTPURLResponse,
    request: URLRequest,
    for endpoint: Endpoint<Response>
  ) throws(NetworkError) -> Response {
    if let readResponse = endpoint.readResponse {
      return try readResponse(body, response, request, endpoint.request.credentials)
    }
    do throws(NetworkError) {
      try ResponseValidator().validate(response, body: body, for: endpoint, request: request)
      return try value(of: body, response: response, for: endpoint)
    } catch {
      throw RequestSecrets(request: request, credentials: endpoint.request.credentials).scrub(error)
    }
  }

  private static func value<Response>(
    of body: Data,
    response: HTTPURLResponse,
    for endpoint: Endpoint<Response>
  ) throws(NetworkError) -> Response {
    // An endpoint that expects no content ignores whatever body it gets.
    guard body.isEmpty || !endpoint.expectsContent else { return try endpoint.decode(body) }
    let emptyIsNormal =
      !endpoint.expectsContent || endpoint.emptyBodyIsValue || [204, 205].contains(response.statusCode)
      || endpoint.request.method == .head
    guard emptyIsNormal, let value = endpoint.emptyResponseValue else { throw .noData }
    return value
  }
}
