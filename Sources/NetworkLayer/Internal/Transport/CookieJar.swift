import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cookie jar of a transport built with `sendsCookies`, kept by the transport rather than by
/// Foundation.
///
/// swift-corelibs-foundation parses every `Set-Cookie` of a session that keeps cookies, and its
/// date parser stops the process on an expiry with an accent after it. So the transport's
/// session keeps none, and this reads each answer's cookies from its ASCII fields only (see
/// `HTTPURLResponse.setCookies`) into the caller's jar, and puts the jar's cookies on each
/// request that sets none itself, at every redirect.
struct CookieJar: Sendable {
  private let storage: HTTPCookieStorage
  /// Whether requests carry the jar's cookies (the configuration's `httpShouldSetCookies`).
  private let sends: Bool
  /// Whether answers' cookies are kept (the configuration's accept policy is not `never`).
  private let accepts: Bool

  /// The jar of `configuration`, or `nil` when the transport sends no cookies or there is none.
  init?(_ configuration: URLSessionConfiguration, sendsCookies: Bool) {
    guard sendsCookies, let storage = configuration.httpCookieStorage else { return nil }
    self.storage = storage
    self.sends = configuration.httpShouldSetCookies
    self.accepts = configuration.httpCookieAcceptPolicy != .never
  }

  /// Puts the jar's cookies for the request's URL in its `Cookie` field, in place of those an
  /// earlier hop of the same request carried; a request that sets `Cookie` itself is left to it
  /// by the transport, which never calls this for one.
  func setCookies(on request: inout URLRequest) {
    guard sends, request.httpShouldHandleCookies, let url = request.url else { return }
    let cookies = storage.cookies(for: url) ?? []
    let field = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    request.setValue(field.isEmpty ? nil : field, forHTTPHeaderField: "Cookie")
  }

  /// Keeps the cookies `response` sets, as the jar's own rules allow.
  func keepCookies(from response: HTTPURLResponse) {
    guard accepts, let url = response.url else { return }
    let cookies = response.setCookies
    if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
  }
}
