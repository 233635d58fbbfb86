public import Foundation

/// The credentials of a signed-in session.
///
/// Its `description`, `debugDescription` and mirror never show the tokens, so logging, `dump`ing
/// or inspecting a value (or anything that holds one) by accident leaks nothing.
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

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The expiry, with both tokens replaced by ``Redactor/placeholder``.
  public var description: String {
    "AuthTokens(accessToken: \(Redactor.placeholder), refreshToken: \(Redactor.placeholder), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The same fields as ``description``, tokens redacted, so `dump` and debuggers cannot reach
  /// them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "accessToken": Redactor.placeholder, "refreshToken": Redactor.placeholder,
        "expiresAt": expiresAt as Any,
      ],
      displayStyle: .struct
    )
  }
}
