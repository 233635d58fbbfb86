public import Foundation

/// The credentials of a signed-in session.
///
/// Its `description`, `debugDescription` and mirror never show the tokens, so logging, `dump`ing
/// or inspecting a value (or anything that holds one) by accident leaks nothing.
public struct AuthTokens: Sendable, Hashable, Codable {
  /// Sent by ``AuthInterceptor`` under the backend's header and scheme, `Authorization: Bearer`
  /// unless told otherwise.
  public var accessToken: String
  /// Exchanged for a new pair when the access token expires or is rejected.
  public var refreshToken: String
  /// When the access token stops being valid, if the server said so.
  public var expiresAt: Date?
  /// When the tokens arrived, if known: with ``expiresAt``, the token's lifetime.
  public var issuedAt: Date?

  /// Creates a token pair.
  public init(accessToken: String, refreshToken: String, expiresAt: Date?, issuedAt: Date? = nil) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
    self.issuedAt = issuedAt
  }

  /// Whether the access token is known to be expired, or to expire within `leeway`, at `now`.
  ///
  /// A token whose lifetime is known gets at most half of it as leeway, so a short-lived token
  /// is used before it is renewed instead of being renewed for every request.
  public func isExpired(at now: Date, leeway: TimeInterval) -> Bool {
    guard let expiresAt else { return false }
    let lifetime = issuedAt.map { max(0, expiresAt.timeIntervalSince($0)) } ?? .infinity
    return expiresAt.timeIntervalSince(now) <= min(leeway, lifetime / 2)
  }
}
