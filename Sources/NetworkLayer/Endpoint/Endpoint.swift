public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Everything the client needs to make one kind of request and to turn its answer into `Response`.
///
/// The response type is part of the endpoint's type, so a call site cannot decode the answer of
/// one endpoint as the value of another. Endpoints are plain values: build them in the data layer,
/// next to the DTOs they return, and hand them to an ``HTTPClient``.
public struct Endpoint<Response: Sendable>: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// Path segments below the client's base URL. Each element is one segment and is
  /// percent-encoded as such, so the request line carries exactly the intended segments: a value
  /// like `"a/b"`, `"../admin"` or `".."` goes out as that one segment (`a%2Fb`, `..%2Fadmin`,
  /// `%2E%2E`), which RFC 3986 treats as data, not as a separator or a dot-segment. A server that
  /// decodes the path before routing may still act on it: nginx, for one, serves
  /// `/v1/users/%2E%2E/secret` as `/v1/secret`. Validate a segment taken from user input.
  ///
  /// No segment may be empty. A path that ends with `/` (`/api/token/`, as backends that route
  /// by directory want) says so with ``endsWithSlash``; it is sent as that slash, never as `%2F`,
  /// and needs no redirect. A base URL's own trailing slash is kept when the endpoint adds no
  /// segment: `https://host/api/` with `[]` is `https://host/api/`.
  public var path: [String]
  /// Whether the path ends with `/` (see ``path``); `false` by default.
  public var endsWithSlash = false
  /// A URL the API gave for this request (a next page's link), sent as it is in place of
  /// ``path`` and ``query``; see ``following(_:)``.
  public var link: URL?
  /// Query items, percent-encoded when the request is built.
  public var query: [URLQueryItem]
  /// Extra request headers. A name that is not a token, a value containing CR, LF or NUL, an
  /// `Accept` header, or a `Content-Type` next to a ``body`` fails the request before it is sent.
  public var headers: [String: String]
  /// The request body and its content type.
  public var body: HTTPBody?
  /// The `Accept` header value, which is also what the response's `Content-Type` must match.
  /// It is the only source of the request's `Accept`: the same header in ``headers`` fails the
  /// request.
  public var accept: String
  /// Status codes that count as success. Anything else fails with ``NetworkError/badStatus(code:bodyExcerpt:)``.
  public var acceptableStatusCodes: Range<Int>
  /// Whether the request carries the user's credentials (see ``AuthInterceptor``).
  public var requiresAuthentication: Bool
  /// Whether sending the request twice has the same effect as sending it once. Only idempotent
  /// requests are retried after a failure that may have reached the server. Defaults to the
  /// method's own idempotency; set it to `true` to opt a `POST` in (with an idempotency key, say).
  public var isIdempotent: Bool
  /// How long the whole call may take, retries included; `nil` uses the client's default.
  ///
  /// Zero or less has passed before the call begins: the call fails with
  /// ``NetworkError/timeout`` and sends nothing. More than a year counts as a year.
  public var deadline: Duration?
  /// Whether a successful response must have a body. `false` for endpoints that expect nothing
  /// (`Response == NoContent`): any body is ignored and an empty one is fine with any status.
  public var expectsContent: Bool
  /// The largest response body, in bytes, this endpoint accepts; `nil` uses the client's
  /// `maximumResponseSize`. A larger body ends the call at once with
  /// ``NetworkError/responseTooLarge(limit:)``. Raise it for an endpoint that downloads more than
  /// a JSON API usually sends.
  public var maximumResponseSize: Int? = nil
  /// Values the request carries as credentials under names that do not say so (`{"rt": …}`):
  /// removed by value from every event, log line and error the client reports about the call.
  public var credentials: [String] = []
  /// Turns a successful, non-empty response body into `Response`.
  public var decode: @Sendable (Data) throws(NetworkError) -> Response
  /// Whether an empty successful body is ``emptyResponseValue`` with any status, as for raw
  /// `Data` endpoints, where no bytes are still bytes.
  var emptyBodyIsValue = false
  /// Set for an endpoint made with `map(_:)`: it reads the whole response in place of
  /// the steps above, given the request and the endpoint's ``credentials``, which may have been
  /// added after the map.
  var readResponse:
    (@Sendable (Data, HTTPURLResponse, URLRequest, [String]) throws(NetworkError) -> Response)?
  /// The value to return when a successful response has no body (204, 205, `HEAD`), or `nil`
  /// if this endpoint needs a body, in which case an empty one fails with ``NetworkError/noData``.
  public var emptyResponseValue: Response?

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
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.accept = accept
    self.acceptableStatusCodes = acceptableStatusCodes
    self.requiresAuthentication = requiresAuthentication
    self.isIdempotent = isIdempotent ?? method.isIdempotent
    self.deadline = deadline
    self.emptyResponseValue = emptyResponseValue
    self.expectsContent = expectsContent
    self.decode = decode
  }
}

extension Endpoint {
  /// This endpoint sent to `link`, a URL the API gave (a `next` page in a body or a `Link`
  /// header), with everything else kept. The link is followed only on the base URL's origin
  /// (scheme, host and port), where the credentials belong; any other fails with
  /// ``NetworkError/invalidURL(_:)`` before anything is sent.
  public func following(_ link: URL) -> Self {
    var endpoint = self
    endpoint.link = link
    return endpoint
  }

  /// This endpoint with a path that ends with `/`, for backends whose every URL does.
  public func endingWithSlash() -> Self {
    var endpoint = self
    endpoint.endsWithSlash = true
    return endpoint
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
    let emptyValue = (Response.self as? any EmptyResponse.Type)?.emptyValue as? Response
    self.init(
      method: method,
      path: path,
      query: query,
      headers: headers,
      body: body,
      accept: "application/json",
      acceptableStatusCodes: acceptableStatusCodes,
      requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent,
      deadline: deadline,
      emptyResponseValue: emptyValue,
      expectsContent: Response.self != NoContent.self,
      decode: JSONResponseDecoder<Response>(decoder: decoder).decode
    )
  }
}

extension Endpoint where Response == Data {
  /// An endpoint whose response is the raw body, without a decoding step:
  /// `Endpoint.raw(path: ["files", "report.pdf"])`.
  ///
  /// Any `Content-Type` matching `accept` (any at all by default) is accepted, and an empty
  /// successful body is empty `Data`, whatever the status. (`Endpoint<Data>(path:)` is the JSON
  /// initialiser, which would read the body as a base64 JSON string.)
  public static func raw(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: HTTPBody? = nil,
    accept: String = "*/*",
    acceptableStatusCodes: Range<Int> = 200..<300,
    requiresAuthentication: Bool = false,
    isIdempotent: Bool? = nil,
    deadline: Duration? = nil
  ) -> Endpoint<Data> {
    var endpoint = Endpoint<Data>(
      method: method,
      path: path,
      query: query,
      headers: headers,
      body: body,
      accept: accept,
      acceptableStatusCodes: acceptableStatusCodes,
      requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent,
      deadline: deadline,
      emptyResponseValue: Data(),
      decode: { (data: Data) throws(NetworkError) -> Data in data }
    )
    endpoint.emptyBodyIsValue = true
    return endpoint
  }
}
