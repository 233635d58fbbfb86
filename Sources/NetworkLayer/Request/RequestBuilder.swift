public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Turns an ``Endpoint`` into a `URLRequest` relative to a base URL.
///
/// Guarantees:
/// - the base URL's own path is kept: `https://host/v1` + `["todos"]` is `https://host/v1/todos`,
///   with exactly one slash between parts whatever trailing slashes the base has;
/// - every path element is one encoded segment, so `"a/b"`, `".."` or `"?x"` stay inside it;
/// - query names and values are encoded so that `+ & = # ? %`, spaces and non-ASCII text
///   reach the server exactly as given;
/// - a header name or value that could split the header block (CR, LF, NUL) is rejected with
///   ``NetworkError/invalidRequest(_:)`` before anything is sent.
public struct RequestBuilder: Sendable {
  /// The URL every endpoint path is appended to.
  public let baseURL: URL

  /// Creates a builder for endpoints below `baseURL`.
  public init(baseURL: URL) {
    self.baseURL = baseURL
  }

  /// Builds the request for `endpoint`.
  public func makeRequest<Response>(for endpoint: Endpoint<Response>) throws(NetworkError) -> URLRequest {
    guard
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
      let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
      components.host?.isEmpty == false
    else {
      throw .invalidURL("base URL must be an absolute http(s) URL")
    }

    var basePath = components.percentEncodedPath
    while basePath.hasSuffix("/") { basePath.removeLast() }
    let segments = try endpoint.path.map { (segment: String) throws(NetworkError) -> String in
      guard !segment.isEmpty else { throw .invalidURL("empty path segment") }
      return Self.percentEncode(segment)
    }
    components.percentEncodedPath = ([basePath] + segments).joined(separator: "/")
    if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }

    if !endpoint.query.isEmpty {
      components.percentEncodedQuery = endpoint.query
        .map { item in
          let name = Self.percentEncode(item.name)
          guard let value = item.value else { return name }
          return "\(name)=\(Self.percentEncode(value))"
        }
        .joined(separator: "&")
    }

    guard let url = components.url else {
      throw .invalidURL("could not form a URL for path \(endpoint.path)")
    }

    var request = URLRequest(url: url)
    request.httpMethod = endpoint.method.rawValue
    request.setValue(endpoint.accept, forHTTPHeaderField: "Accept")
    if let body = endpoint.body {
      request.httpBody = try body.encode()
      request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
    }
    for (name, value) in endpoint.headers {
      try Self.validateHeader(name: name, value: value)
      request.setValue(value, forHTTPHeaderField: name)
    }
    return request
  }

  /// Unreserved characters (RFC 3986 §2.3) pass; everything else is percent-encoded as UTF-8.
  static func percentEncode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
  }

  private static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
  )

  private static func validateHeader(name: String, value: String) throws(NetworkError) {
    let tokenCharacters = CharacterSet(
      charactersIn: "!#$%&'*+-.^_`|~ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    )
    guard !name.isEmpty, name.unicodeScalars.allSatisfy(tokenCharacters.contains) else {
      throw .invalidRequest("header name \"\(name)\" is not a valid token")
    }
    // The value is not echoed: it may be a credential.
    guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
      throw .invalidRequest("value of header \"\(name)\" contains a line break or NUL")
    }
  }
}
