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
/// request that sets none itself, at every redirect. corelibs' jar stores and picks cookies by
/// domain alone, matched as text; the rest of RFC 6265's rules are kept here.
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
  /// by the transport, which never calls this for one. A `Secure` cookie goes only over https, a
  /// cookie only under its path, and none past its end.
  func setCookies(on request: inout URLRequest) {
    guard sends, request.httpShouldHandleCookies, let url = request.url else { return }
    let (now, path) = (Date(), url.path.isEmpty ? "/" : url.path)
    let isSecure = url.scheme?.lowercased() == "https"
    let cookies = (storage.cookies(for: url) ?? []).filter { cookie in
      (isSecure || !cookie.isSecure) && Self.path(path, isUnder: cookie.path)
        && (cookie.expiresDate.map { $0 > now } ?? true)
    }
    let field = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    request.setValue(field.isEmpty ? nil : field, forHTTPHeaderField: "Cookie")
  }

  /// RFC 6265's limits (section 6.1), as browsers keep them: a cookie's name and value together
  /// fit in this many bytes, ...
  static let maximumCookieSize = 4_096
  /// ... a domain keeps this many cookies, ...
  static let maximumCookiesPerDomain = 50
  /// ... and the jar this many in all.
  static let maximumCookies = 3_000

  /// Keeps the cookies `response` sets that its host may set (see ``mayBeSet(_:by:)``), as the
  /// jar's own rules allow. One whose life is over (`Max-Age=0`, an `Expires` past) removes the
  /// cookie it names; a `Max-Age` is kept as the moment it ends, which corelibs would drop.
  ///
  /// Within RFC 6265's limits: a cookie larger than ``maximumCookieSize`` is not kept, and once
  /// its domain holds ``maximumCookiesPerDomain`` cookies, or the jar ``maximumCookies``, a new
  /// name is not kept either, though a cookie already there is still replaced or removed. So a
  /// host that sets cookie after cookie cannot grow the jar, and every request, without end, nor
  /// push out the session's cookie set before it.
  func keepCookies(from response: HTTPURLResponse) {
    guard accepts, let url = response.url, let host = url.host?.lowercased() else { return }
    let now = Date()
    for cookie in response.setCookies
    where Self.mayBeSet(cookie, by: host)
      && cookie.name.utf8.count + cookie.value.utf8.count <= Self.maximumCookieSize
    {
      let end = cookie.maximumAge.map { now.addingTimeInterval($0) } ?? cookie.expiresMoment
      var kept: HTTPCookie? = cookie
      if let end, end <= now {
        kept = nil
      } else if let end, cookie.maximumAge != nil, var properties = cookie.properties {
        properties[.maximumAge] = nil
        properties[.expires] = end
        kept = HTTPCookie(properties: properties)
      }
      let jar = storage.cookies ?? []
      let replaced = jar.filter { Self.isSame($0, as: cookie) }
      for old in replaced { storage.deleteCookie(old) }
      guard let kept, !replaced.isEmpty || hasRoom(for: kept, in: jar, now: now) else { continue }
      storage.setCookies([kept], for: url, mainDocumentURL: nil)
    }
  }

  /// Whether the jar, which holds `jar`, has room for a new cookie of `cookie`'s domain, once the
  /// cookies whose life is over are gone.
  private func hasRoom(for cookie: HTTPCookie, in jar: [HTTPCookie], now: Date) -> Bool {
    // A jar that holds fewer than one domain's limit has room whatever it holds.
    guard jar.count >= Self.maximumCookiesPerDomain else { return true }
    let live = jar.filter { old in
      let isOver = old.expiresDate.map { $0 <= now } ?? false
      if isOver { storage.deleteCookie(old) }
      return !isOver
    }
    let domain = Self.domain(of: cookie)
    return live.count < Self.maximumCookies
      && live.lazy.filter { Self.domain(of: $0) == domain }.count < Self.maximumCookiesPerDomain
  }

  /// The domain a cookie belongs to, without the leading dot an older syntax gives it.
  private static func domain(of cookie: HTTPCookie) -> Substring {
    Substring(cookie.domain.lowercased()).drop { $0 == "." }
  }

  /// Whether `host` may set `cookie`: one for the host itself always; one for a domain above it
  /// only when the host is a name, not an IP address, and the domain has more than one label.
  /// corelibs matches domains as text, so it would keep a cookie that `127.0.0.1` sets for
  /// `0.0.1` and send it to `10.0.0.1`, or one that any `.com` host sets for `com` and send it to
  /// every other. (A public suffix of two labels, `co.uk`, still passes: there is no list here.)
  static func mayBeSet(_ cookie: HTTPCookie, by host: String) -> Bool {
    let domain = Self.domain(of: cookie)
    if domain == host { return true }
    let isAddress = host.contains(":") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
    return !isAddress && domain.contains(".") && host.hasSuffix("." + domain)
  }

  /// RFC 6265's path-match: the cookie's path itself, or a path below it.
  static func path(_ path: String, isUnder cookiePath: String) -> Bool {
    guard path.hasPrefix(cookiePath) else { return false }
    return path.count == cookiePath.count || cookiePath.hasSuffix("/")
      || path.dropFirst(cookiePath.count).first == "/"
  }

  /// Whether two cookies are one to the jar: the same name, domain and path.
  private static func isSame(_ lhs: HTTPCookie, as rhs: HTTPCookie) -> Bool {
    lhs.name == rhs.name && lhs.domain.lowercased() == rhs.domain.lowercased() && lhs.path == rhs.path
  }
}
