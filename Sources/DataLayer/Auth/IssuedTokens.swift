public import Foundation
public import NetworkLayer

/// Tokens as a login or refresh answer carries them, before the session keeps them.
///
/// Like `AuthTokens`, its description and mirror show no token.
public struct IssuedTokens: Sendable, Hashable {
  /// The access token authenticated requests carry.
  public var accessToken: String
  /// The refresh token the answer carries, or `nil` when it carries none: after a refresh the
  /// session then keeps the one it had (no rotation); after a login it has none, is never
  /// refreshed, and ends at the first rejected request.
  public var refreshToken: String?
  /// When the access token expires.
  public var expiry: TokenExpiry

  /// Creates tokens as issued.
  public init(accessToken: String, refreshToken: String?, expiry: TokenExpiry) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiry = expiry
  }

  /// The tokens the session keeps: the expiry as a date, counted from `receivedAt` when the
  /// answer gave it in seconds (unknown when the seconds are too many to count), and
  /// `previous`'s refresh token when this answer carries none.
  public func tokens(receivedAt: Date, replacing previous: AuthTokens? = nil) -> AuthTokens {
    let expiresAt: Date? =
      switch expiry {
      case .after(let seconds): seconds.isFinite ? receivedAt.addingTimeInterval(max(0, seconds)) : nil
      case .at(let date): date
      case .unknown: nil
      }
    return AuthTokens(
      accessToken: accessToken,
      refreshToken: refreshToken ?? previous?.refreshToken ?? "",
      expiresAt: expiresAt,
      issuedAt: receivedAt
    )
  }
}

/// When an access token expires, as its backend tells it.
public enum TokenExpiry: Sendable, Hashable {
  /// This many seconds after the answer arrived: an `expires_in` field, or a JWT's lifetime.
  /// Zero or less is expired on arrival, so each request renews it first; a backend that means
  /// "never expires" by `0` maps it to ``unknown`` in its contract.
  case after(seconds: Double)
  /// At this moment: an absolute field, or a JWT's `exp` claim without `iat` (see ``jwt(_:)``).
  /// A login or refresh answer with a `Date` header has it read by the server's clock, so a
  /// device clock hours off does not matter; without one it is only as good as the device's.
  case at(Date)
  /// Not told: the token is renewed only when the server rejects it with a 401.
  case unknown
}

extension IssuedTokens: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The expiry, with the tokens replaced by `Redactor.placeholder`.
  public var description: String {
    let refresh = refreshToken == nil ? "nil" : Redactor.placeholder
    return "IssuedTokens(accessToken: \(Redactor.placeholder), refreshToken: \(refresh), expiry: \(expiry))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The same fields as ``description``, tokens redacted.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "accessToken": Redactor.placeholder,
        "refreshToken": refreshToken.map { _ in Redactor.placeholder } as Any,
        "expiry": expiry,
      ],
      displayStyle: .struct
    )
  }
}
