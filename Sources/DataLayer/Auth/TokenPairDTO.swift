public import Foundation
public import NetworkLayer

/// The body of a successful login or refresh, as the API sends it.
public struct TokenPairDTO: Codable, Sendable, Hashable {
  public var accessToken: String
  public var refreshToken: String
  /// Seconds until the access token expires, counted from when the response was received.
  public var expiresIn: Int

  /// Creates a DTO.
  public init(accessToken: String, refreshToken: String, expiresIn: Int) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  /// The tokens, with the expiry turned into a date relative to `receivedAt`.
  public func tokens(receivedAt: Date) -> AuthTokens {
    AuthTokens(
      accessToken: accessToken,
      refreshToken: refreshToken,
      expiresAt: receivedAt.addingTimeInterval(TimeInterval(max(0, expiresIn)))
    )
  }
}

extension TokenPairDTO: CustomStringConvertible {
  public var description: String { "TokenPairDTO(expiresIn: \(expiresIn))" }
}
