public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

extension Endpoint {
  /// This endpoint, answering with the value and the response's metadata.
  func reportingMetadata() -> Endpoint<HTTPResponse<Response>> {
    map { value, response in HTTPResponse(value: value, response: response) }
  }

  /// This endpoint, its answer read as before (validated, decoded, scrubbed) and then turned
  /// into `Other` with `transform`, which also sees the response's head: a `Link` header, say.
  /// An error `transform` throws is scrubbed of the request's secrets too.
  public func map<Other>(
    _ transform: @escaping @Sendable (Response, HTTPURLResponse) throws(NetworkError) -> Other
  ) -> Endpoint<Other> {
    let original = self
    // Only a client that skips the pipeline decodes this way; it has no head, so `transform`
    // sees a bare 200.
    let decode = { @Sendable (data: Data) throws(NetworkError) -> Other in
      guard let head = HTTPURLResponse(url: Self.noURL, statusCode: 200, httpVersion: nil, headerFields: nil)
      else { throw .invalidResponse }
      return try transform(try original.decode(data), head)
    }
    var endpoint = Endpoint<Other>(
      request: request, expectsContent: expectsContent, emptyResponseValue: nil, decode: decode)
    endpoint.emptyBodyIsValue = emptyBodyIsValue
    endpoint.readResponse = { body, response, request, credentials, refusals throws(NetworkError) in
      var original = original
      original.request.credentials = credentials
      let value = try original.value(in: body, response: response, request: request, refusals: refusals)
      do throws(NetworkError) {
        return try transform(value, response)
      } catch {
        throw RequestSecrets(request: request, credentials: credentials).scrub(error)
      }
    }
    return endpoint
  }

  /// This endpoint, its answer turned into `Other` with `transform` once read as before.
  public func map<Other>(
    _ transform: @escaping @Sendable (Response) throws(NetworkError) -> Other
  ) -> Endpoint<Other> {
    map { value, _ throws(NetworkError) in try transform(value) }
  }

  /// The same request, its JSON answer decoded as `Other` instead: the envelope a list comes
  /// in, say. An empty body fails with ``NetworkError/noData``.
  public func decoding<Other: Decodable & Sendable>(
    as type: Other.Type, decoder: JSONDecoder = JSONDecoder()
  ) -> Endpoint<Other> {
    Endpoint<Other>(
      request: request, expectsContent: true, emptyResponseValue: nil,
      decode: JSONResponseDecoder<Other>(decoder: decoder).decode)
  }

  private static var noURL: URL { URL(fileURLWithPath: "/") }
}
