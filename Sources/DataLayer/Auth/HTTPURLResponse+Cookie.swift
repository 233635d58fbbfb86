#if canImport(FoundationNetworking)
  public import FoundationNetworking
#else
  public import Foundation
#endif

extension HTTPURLResponse {
  /// The cookie named `name` that this answer sets: a login contract's `map` reads a session or
  /// refresh cookie with it. Several `Set-Cookie` lines are told apart; a line that is not all
  /// ASCII, which no valid cookie is, goes unread, so that no server can stop the app, and the
  /// answer's other lines are still read (see NetworkLayer's `Internal/README.md`).
  public func cookie(named name: String) -> HTTPCookie? {
    setCookies.first { $0.name == name }
  }
}

extension HTTPCookie {
  /// How long what this cookie holds lasts, by RFC 6265's rule: `Max-Age` (seconds from its
  /// arrival) before `Expires` (a moment); neither makes it last as long as the app runs.
  public var expiry: TokenExpiry {
    if let seconds = maximumAge { return .after(seconds: seconds) }
    return expiresMoment.map(TokenExpiry.at) ?? .unknown
  }
}
