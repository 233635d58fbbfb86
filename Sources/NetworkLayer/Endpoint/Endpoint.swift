public import Foundation

/// Everything the client needs to make one kind of request and to turn its answer into `Response`.
///
/// The response type is part of the endpoint's type, so a call site cannot decode the answer of
/// one endpoint as the value of another. Endpoints are plain values: build them in the data layer,
/// next to the DTOs they return, and hand them to an ``HTTPClient``.
public struct Endpoint<Response: Sendable>: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// Path segments below the client's base URL. Each element is one segment and is
  /// percent-encoded as such, so a value like `"a/b"` or `"../admin"` cannot change the route.
  public var path: [String]
  /// Query items, percent-encoded when the request is built.
  public var query: [URLQueryItem]
  /// Extra request headers.
  public var headers: [String: String]
  /// The request body, already encoded.
  public var body: Data?
  /// The `Accept` header value, which is also what the response's `Content-Type` must match.
  public var accept: String
  /// Status codes that count as success. Anything else fails with ``NetworkError/badStatus(code:bodyExcerpt:)``.
  public var acceptableStatusCodes: Range<Int>
  /// Turns a successful response body into `Response`.
  public var decode: @Sendable (Data) throws(NetworkError) -> Response

  /// Creates an endpoint with an explicit decoding step.
  public init(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Data? = nil,
    accept: String = "application/json",
    acceptableStatusCodes: Range<Int> = 200..<300,
    decode: @escaping @Sendable (Data) throws(NetworkError) -> Response
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.accept = accept
    self.acceptableStatusCodes = acceptableStatusCodes
    self.decode = decode
  }
}

extension Endpoint where Response: Decodable {
  /// Creates an endpoint whose JSON response decodes to `Response`.
  ///
  /// An empty body fails with ``NetworkError/noData``; a body that does not decode fails with
  /// ``NetworkError/decodingFailed(path:reason:)`` naming where decoding stopped.
  public init(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Data? = nil,
    acceptableStatusCodes: Range<Int> = 200..<300
  ) {
    self.init(
      method: method,
      path: path,
      query: query,
      headers: headers,
      body: body,
      accept: "application/json",
      acceptableStatusCodes: acceptableStatusCodes,
      decode: JSONResponseDecoder<Response>().decode
    )
  }
}
