public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One kind of request, and how its answer becomes `Response`.
///
/// The response type is part of the endpoint's type, so a call site cannot decode the answer of
/// one endpoint as the value of another. Endpoints are plain values: build them in the data layer,
/// next to the DTOs they return, and hand them to an ``HTTPClient``. What is sent is the
/// endpoint's ``request``, whose properties read and write through the endpoint itself.
@dynamicMemberLookup
public struct Endpoint<Response: Sendable>: Sendable {
  /// What the endpoint sends, and the limits its answer must meet.
  public var request: EndpointRequest
  /// Whether a successful response must have a body. `false` for endpoints that expect nothing
  /// (`Response == NoContent`): any body is ignored and an empty one is fine with any status.
  public var expectsContent: Bool
  /// The value to return when an accepted response has no body (204, 205, 304, `HEAD`), or `nil`
  /// if this endpoint needs a body, in which case an empty one fails with ``NetworkError/noData``.
  public var emptyResponseValue: Response?
  /// Turns a successful, non-empty response body into `Response`.
  public var decode: @Sendable (Data) throws(NetworkError) -> Response
  /// Whether an empty successful body is ``emptyResponseValue`` with any status, as for raw
  /// `Data` endpoints, where no bytes are still bytes.
  var emptyBodyIsValue = false
  /// Set by `map`: reads the whole response in place of the steps above.
  var readResponse:
    (@Sendable (Data, HTTPURLResponse, URLRequest, [String], RefusalFormat) throws(NetworkError) -> Response)?

  /// Creates an endpoint with an explicit decoding step.
  public init(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: HTTPBody? = nil,
    accept: String = "application/json",
    acceptableStatusCodes: Range<Int> = 200..<300,
    requiresAuthentication: Bool = false,
    isIdempotent: Bool? = nil,
    deadline: Duration? = nil,
    emptyResponseValue: Response? = nil,
    expectsContent: Bool = true,
    decode: @escaping @Sendable (Data) throws(NetworkError) -> Response
  ) {
    let request = EndpointRequest(
      method: method, path: path, query: query, headers: headers, body: body, accept: accept,
      acceptableStatusCodes: acceptableStatusCodes, requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent ?? method.isIdempotent, deadline: deadline)
    self.init(
      request: request, expectsContent: expectsContent, emptyResponseValue: emptyResponseValue,
      decode: decode)
  }

  init(
    request: EndpointRequest,
    expectsContent: Bool,
    emptyResponseValue: Response?,
    decode: @escaping @Sendable (Data) throws(NetworkError) -> Response
  ) {
    self.request = request
    self.expectsContent = expectsContent
    self.emptyResponseValue = emptyResponseValue
    self.decode = decode
  }

  /// The request's properties, read and written through the endpoint: `endpoint.request.path`.
  public subscript<Value>(dynamicMember property: WritableKeyPath<EndpointRequest, Value>) -> Value {
    get { request[keyPath: property] }
    set { request[keyPath: property] = newValue }
  }
}

extension Endpoint where Response: Decodable {
  /// Creates an endpoint whose JSON response decodes to `Response`.
  ///
  /// An empty body fails with ``NetworkError/noData`` unless `Response` conforms to
  /// ``EmptyResponse`` (as ``NoContent`` and `Optional` do); a body that does not decode fails
  /// with ``NetworkError/decodingFailed(path:reason:)`` naming where decoding stopped.
  public init(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: HTTPBody? = nil,
    acceptableStatusCodes: Range<Int> = 200..<300,
    requiresAuthentication: Bool = false,
    isIdempotent: Bool? = nil,
    deadline: Duration? = nil,
    decoder: JSONDecoder = JSONDecoder()
  ) {
    self.init(
      method: method, path: path, query: query, headers: headers, body: body,
      acceptableStatusCodes: acceptableStatusCodes, requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent, deadline: deadline,
      emptyResponseValue: (Response.self as? any EmptyResponse.Type)?.emptyValue as? Response,
      expectsContent: Response.self != NoContent.self,
      decode: JSONResponseDecoder<Response>(decoder: decoder).decode)
  }
}
