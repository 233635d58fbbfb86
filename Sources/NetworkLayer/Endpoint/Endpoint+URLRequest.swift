public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// How an endpoint becomes a `URLRequest` relative to a base URL.
///
/// A value in an endpoint is data, never syntax: each path element is one percent-encoded
/// segment, query items reach the server exactly as given, the base URL's own path and query are
/// kept, and a method, header name or value that could add a line to the request head fails
/// with ``NetworkError/invalidRequest(_:)`` before anything is sent. `Accept` comes only from
/// ``EndpointRequest/accept`` and a body's `Content-Type` only from ``HTTPBody``, so validation
/// checks the response against what was asked. Each guarantee, with its test, is under "Request
/// line" in <doc:NetworkingGuarantees>.
extension Endpoint {
  /// The request this endpoint sends to the API at `baseURL` (or at the endpoint's own
  /// ``EndpointRequest/baseURL``), for a client of your own; ``URLSessionHTTPClient`` builds
  /// every attempt this way.
  public func urlRequest(relativeTo baseURL: URL) throws(NetworkError) -> URLRequest {
    try urlRequest(relativeTo: baseURL, parts: BaseURLParts(baseURL))
  }

  /// The same, with the base URL taken apart once by the caller (`nil` when it is not http(s)).
  func urlRequest(relativeTo baseURL: URL, parts: BaseURLParts?) throws(NetworkError) -> URLRequest {
    let endpoint = request
    var (base, parts) = (baseURL, parts)
    if let own = endpoint.baseURL {
      // Credentials belong to the client's origin only.
      if endpoint.requiresAuthentication, Origin(own) != Origin(baseURL) {
        throw .invalidRequest("an authenticated endpoint goes only to the origin of the client's base URL")
      }
      (base, parts) = (own, BaseURLParts(own))
    }
    guard let parts else { throw .invalidURL("base URL must be an absolute http(s) URL") }
    let url: URL
    if var link = endpoint.link {
      // A relative link is read from the endpoint's own URL, as a page's body or header means it.
      if link.scheme == nil {
        let own = try parts.url(appending: endpoint.path, endsWithSlash: endpoint.endsWithSlash, query: [])
        link = URL(string: link.relativeString, relativeTo: own)?.absoluteURL ?? link
      }
      // A link the API gave may point anywhere, and the request may carry credentials. An http
      // link to an https API's own host goes over https.
      link = Origin.upgrading(link, toSchemeOf: base)
      guard Origin(link).isHTTP, Origin(link) == Origin(base) else {
        throw .invalidURL("a link to another origin is not followed")
      }
      url = link
    } else {
      url = try parts.url(
        appending: endpoint.path, endsWithSlash: endpoint.endsWithSlash, query: endpoint.query)
    }
    try HeaderSyntax.validate(method: endpoint.method.rawValue)
    try HeaderSyntax.validate(name: "Accept", value: endpoint.accept)
    var fields = ["Accept": endpoint.accept]
    if let body = endpoint.body {
      try HeaderSyntax.validate(name: "Content-Type", value: body.contentType)
      fields["Content-Type"] = body.contentType
    }
    var request = URLRequest(url: url, method: endpoint.method.rawValue, fields: fields)
    if let body = endpoint.body { request.httpBody = try body.encode() }
    for (name, value) in endpoint.headers {
      try HeaderSyntax.validate(name: name, value: value)
      if HeaderSyntax.sameName(name, "Accept") {
        throw .invalidRequest("set Accept through Endpoint.accept, which validation checks against")
      }
      if endpoint.body != nil, HeaderSyntax.sameName(name, "Content-Type") {
        throw .invalidRequest("set a body's Content-Type through HTTPBody, not Endpoint.headers")
      }
      request.setValue(value, forHTTPHeaderField: name)
    }
    return request
  }
}

extension Endpoint {
  /// This endpoint sent to `link`, a URL the API gave (a next page), with everything else kept;
  /// a relative one (`?page=2`, `/v1/todos?page=2`) is read from the endpoint's own URL. A link
  /// off the base URL's origin, where the credentials belong, fails with
  /// ``NetworkError/invalidURL(_:)`` before anything is sent; a plain `http` link to an `https`
  /// API's own host is sent over https, as the API is.
  public func following(_ link: URL) -> Self {
    var endpoint = self
    endpoint.request.link = link
    return endpoint
  }

  /// This endpoint with a path that ends with `/`, for backends whose every URL does.
  public func endingWithSlash() -> Self {
    var endpoint = self
    endpoint.request.endsWithSlash = true
    return endpoint
  }
}
