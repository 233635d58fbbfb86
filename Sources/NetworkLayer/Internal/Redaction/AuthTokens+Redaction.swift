import Foundation

extension AuthTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The expiry, with both tokens replaced by ``Redactor/placeholder``.
  public var description: String {
    "AuthTokens(accessToken: \(Redactor.placeholder), refreshToken: \(Redactor.placeholder), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"), issuedAt: \(issuedAt.map { "\($0)" } ?? "unknown"))"
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
        "expiresAt": expiresAt as Any, "issuedAt": issuedAt as Any,
      ],
      displayStyle: .struct
    )
  }
}
