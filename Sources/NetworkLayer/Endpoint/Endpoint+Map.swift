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
    var endpoint = retyped(expectsContent: expectsContent, emptyResponseValue: nil) {
      (data: Data) throws(NetworkError) -> Other in
      guard let head = HTTPURLResponse(url: Self.noURL, statusCode: 200, httpVersion: nil, headerFields: nil)
      else { throw .invalidResponse }
      return try transform(try original.decode(data), head)
    }
    endpoint.emptyBodyIsValue = emptyBodyIsValue
    endpoint.readResponse = { body, response, request, credentials throws(NetworkError) in
      var original = original
      original.credentials = credentials
      let value = try ResponseReader.read(body, response: response, request: request, for: original)
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
    retyped(
      expectsContent: true, emptyResponseValue: nil,
      decode: JSONResponseDecoder<Other>(decoder: decoder).decode)
  }

  /// This endpoint's request with another way to read its answer: the one place that copies
  /// every stored property of the request.
  private func retyped<Other>(
    expectsContent: Bool, emptyResponseValue: Other?,
    decode: @escaping @Sendable (Data) throws(NetworkError) -> Other
  ) -> Endpoint<Other> {
    var endpoint = Endpoint<Other>(
      method: method, path: path, query: query, headers: headers, body: body, accept: accept,
      acceptableStatusCodes: acceptableStatusCodes, requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent, deadline: deadline, emptyResponseValue: emptyResponseValue,
      expectsContent: expectsContent, decode: decode)
    endpoint.maximumResponseSize = maximumResponseSize
    endpoint.endsWithSlash = endsWithSlash
    endpoint.link = link
    endpoint.credentials = credentials
    return endpoint
  }

  private static var noURL: URL { URL(fileURLWithPath: "/") }
}
