import Foundation

/// The scheme, host and port of a URL: the unit credentials are scoped to.
///
/// `https://api.example.com` and `https://api.example.com:443/v1` are the same origin;
/// `http://api.example.com`, `https://evil.example` and `https://api.example.com:8443` are not.
struct Origin: Sendable, Hashable {
  let scheme: String
  let host: String
  let port: Int?

  init(_ url: URL) {
    let scheme = url.scheme?.lowercased() ?? ""
    self.scheme = scheme
    self.host = url.host?.lowercased() ?? ""
    self.port = url.port ?? Self.defaultPorts[scheme]
  }

  /// Whether this is an `http` or `https` origin with a host: one the transport can send to.
  var isHTTP: Bool {
    (scheme == "http" || scheme == "https") && !host.isEmpty
  }

  /// Whether `url` belongs to this origin; `false` for `nil`.
  func contains(_ url: URL?) -> Bool {
    guard let url else { return false }
    return Origin(url) == self
  }

  /// `link` over https when it is a plain http URL on http's default port and `base` is https; else
  /// `link` as it is. A server behind a proxy that ends TLS for it often writes its own links as
  /// http, and a link taken over https instead can only be more private.
  static func upgrading(_ link: URL, toSchemeOf base: URL) -> URL {
    guard link.scheme?.lowercased() == "http", base.scheme?.lowercased() == "https",
      link.port == nil || link.port == 80,
      var components = URLComponents(url: link, resolvingAgainstBaseURL: false)
    else { return link }
    (components.scheme, components.port) = ("https", nil)
    return components.url ?? link
  }

  private static let defaultPorts = ["http": 80, "https": 443]
}
