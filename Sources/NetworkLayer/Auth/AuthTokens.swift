public import Foundation

/// The credentials of a signed-in session.
///
/// Its `description` never shows the tokens, so logging a value by accident leaks nothing.
public struct AuthTokens: Sendable, Hashable, Codable {
  /// Sent as `Authorization: Bearer <accessToken>`.
  public var accessToken: String
  /// Exchanged for a new pair when the access token expires or is rejected.
  public var refreshToken: String
  /// When the access token stops being valid, if the server said so.
  public var expiresAt: Date?

  /// Creates a token pair.
  public init(accessToken: String, refreshToken: String, expiresAt: Date?) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
  }

  /// Whether the access token is known to be expired, or to expire within `leeway`, at `now`.
  public func isExpired(at now: Date, leeway: TimeInterval) -> Bool {
    guard let expiresAt else { return false }
    return expiresAt.timeIntervalSince(now) <= leeway
  }
}

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String {
    "AuthTokens(accessToken: \(Redactor.placeholder), refreshToken: \(Redactor.placeholder), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
  }

  public var debugDescription: String { description }
}
