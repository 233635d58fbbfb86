import Foundation
import NetworkLayer

/// The body of a successful login or refresh, as the API sends it.
///
/// Its `description`, `debugDescription` and mirror never show the tokens, so logging or
/// `dump`ing a value by accident leaks nothing.
public struct TokenPairDTO: Codable, Sendable, Hashable {
  /// The bearer token for authenticated requests. A secret: never shown by ``description``,
  /// ``debugDescription`` or ``customMirror``.
  public var accessToken: String
  /// The token that renews the session. A secret, hidden like ``accessToken``.
  public var refreshToken: String
  /// Seconds until the access token expires, counted from when the response was received.
  public var expiresIn: Int

  /// Creates a DTO.
  public init(accessToken: String, refreshToken: String, expiresIn: Int) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  /// The tokens as issued, expiring ``expiresIn`` seconds after the answer arrived.
  public var issued: IssuedTokens {
    IssuedTokens(
      accessToken: accessToken, refreshToken: refreshToken, expiry: .after(seconds: Double(expiresIn)))
  }
}

extension TokenPairDTO: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The expiry, with both tokens replaced by `Redactor.placeholder`.
  public var description: String {
    "TokenPairDTO(accessToken: \(Redactor.placeholder), refreshToken: \(Redactor.placeholder), expiresIn: \(expiresIn))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The same fields as ``description``, tokens redacted, so `dump` and debuggers cannot reach
  /// them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "accessToken": Redactor.placeholder, "refreshToken": Redactor.placeholder, "expiresIn": expiresIn,
      ],
      displayStyle: .struct
    )
  }
}
