public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Turns an ``Endpoint`` into a `URLRequest` relative to a base URL.
///
/// Guarantees:
/// - the base URL's own path is kept: `https://host/v1` + `["todos"]` is `https://host/v1/todos`,
///   with exactly one slash between parts whatever trailing slashes the base has, and its scheme
///   may be written in any case (`HTTP://host` is sent as `http://host`);
/// - every path element goes out in the request line as exactly one percent-encoded segment with
///   exactly that value: `"a/b"`, `"?x"`, and the dot segments `"."` and `".."` (sent as `%2E`
///   and `%2E%2E`, which Foundation does not resolve and RFC 3986 treats as data) add no segment
///   and remove none. A server that decodes the path before routing may still merge them (nginx
///   serves `/v1/users/%2E%2E/secret` as `/v1/secret`), so validate a segment taken from user
///   input;
/// - query names and values are encoded so that `+ & = # ? %`, spaces and non-ASCII text
///   reach the server exactly as given;
/// - the base URL's own query is sent with every request, the endpoint's items after it:
///   `https://host/v1?key=K` + `["todos"]` with `page=2` is `https://host/v1/todos?key=K&page=2`.
///   A key given in the base URL is never dropped for an endpoint that has a query of its own;
/// - the method is an RFC 9110 token, every header name is a token, and no header value (the
///   `Accept` value and the body's content type included) contains CR, LF or NUL; anything else
///   fails with ``NetworkError/invalidRequest(_:)`` before anything is sent;
/// - a link the API gave (``Endpoint/following(_:)``) is sent as it is, and only on the base URL's
///   origin;
/// - `Accept` is set only from ``EndpointRequest/accept``, the value validation checks the response
///   against, and `Content-Type` of a body only from ``HTTPBody/contentType``: the same header in
///   ``EndpointRequest/headers`` fails the request instead of silently replacing them.
public struct RequestBuilder: Sendable {
  /// The URL every endpoint path is appended to.
  public let baseURL: URL

  /// The base URL taken apart once (tuning: see the performance article); `nil` when it is not
  /// http(s).
  private let base: BaseURLParts?

  /// Creates a builder for endpoints below `baseURL`.
  public init(baseURL: URL) {
    self.baseURL = baseURL
    self.base = BaseURLParts(baseURL)
  }

  /// Builds the request for `endpoint`.
  public func makeRequest<Response>(for endpoint: Endpoint<Response>) throws(NetworkError) -> URLRequest {
    guard let base else { throw .invalidURL("base URL must be an absolute http(s) URL") }
    let url: URL
    if let link = endpoint.request.link {
      url = try followable(link)
    } else {
      url = try self.url(for: endpoint, base: base)
    }

    // The method is not echoed: a forged one is an attack, not a detail worth printing.
    guard HeaderSyntax.isToken(endpoint.request.method.rawValue) else {
      throw .invalidRequest("the method is not an RFC 9110 token")
    }
    var request = URLRequest(url: url)
    request.httpMethod = endpoint.request.method.rawValue
    try Self.validateHeader(name: "Accept", value: endpoint.request.accept)
    request.setCanonicalHeaderField("Accept", to: endpoint.request.accept)
    if let body = endpoint.request.body {
      try Self.validateHeader(name: "Content-Type", value: body.contentType)
      request.httpBody = try body.encode()
      request.setCanonicalHeaderField("Content-Type", to: body.contentType)
    }
    for (name, value) in endpoint.request.headers {
      try Self.validateHeader(name: name, value: value)
      if HeaderSyntax.sameName(name, "Accept") {
        throw .invalidRequest("set Accept through Endpoint.accept, which validation checks against")
      }
      if endpoint.request.body != nil, HeaderSyntax.sameName(name, "Content-Type") {
        throw .invalidRequest("set a body's Content-Type through HTTPBody, not Endpoint.headers")
      }
      request.setValue(value, forHTTPHeaderField: name)
    }
    return request
  }

  /// `link`, when it is on the base URL's origin: a link the API gave may point anywhere, and
  /// the request may carry credentials.
  private func followable(_ link: URL) throws(NetworkError) -> URL {
    guard Origin(link).isHTTP, Origin(link) == Origin(baseURL) else {
      throw .invalidURL("a link to another origin is not followed")
    }
    return link
  }

  /// The base URL, the endpoint's segments and its query, each percent-encoded as it must be.
  private func url<Response>(for endpoint: Endpoint<Response>, base: BaseURLParts) throws(NetworkError) -> URL
  {
    var text = base.origin
    text += base.path
    for segment in endpoint.request.path {
      guard !segment.isEmpty else { throw .invalidURL("empty path segment") }
      text += "/"
      text += PercentEncoding.segment(segment)
    }
    // The endpoint's trailing slash, or the base URL's when the endpoint adds no segment.
    if endpoint.request.endsWithSlash || (endpoint.request.path.isEmpty && (base.path.isEmpty || base.endsWithSlash)) {
      text += "/"
    }

    if let query = base.query {
      text += "?"
      text += query
      if !query.isEmpty && !endpoint.request.query.isEmpty { text += "&" }
    } else if !endpoint.request.query.isEmpty {
      text += "?"
    }
    PercentEncoding.append(endpoint.request.query, formEncodedTo: &text)
    if let fragment = base.fragment {
      text += "#"
      text += fragment
    }

    guard let url = URL(string: text) else {
      throw .invalidURL("could not form a URL for path \(endpoint.request.path)")
    }
    return url
  }

  /// Checks a request as it will go on the wire, after interceptors changed it: the method is a
  /// token, header names are tokens and no value contains CR, LF or NUL. An interceptor may add
  /// a value that came from a server, such as a bearer token, so the check runs again here.
  static func validateWireSafety(of request: URLRequest) throws(NetworkError) {
    guard HeaderSyntax.isToken(request.httpMethod ?? "GET") else {
      throw .invalidRequest("the method is not an RFC 9110 token")
    }
    for (name, value) in request.allHTTPHeaderFields ?? [:] {
      try validateHeader(name: name, value: value)
    }
  }

  private static func validateHeader(name: String, value: String) throws(NetworkError) {
    guard HeaderSyntax.isToken(name) else {
      throw .invalidRequest("header name \"\(name)\" is not a valid token")
    }
    // The value is not echoed: it may be a credential.
    guard HeaderSyntax.isSafeValue(value) else {
      throw .invalidRequest("value of header \"\(name)\" contains a line break or NUL")
    }
  }
}
