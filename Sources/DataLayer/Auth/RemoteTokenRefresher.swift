public import Foundation
public import NetworkLayer

/// A `TokenRefresher` that calls `POST /auth/refresh`.
///
/// Give it a client built *without* the auth interceptor (`AppContainer` does): the refresh
/// request carries its own credential, and sending it through the interceptor would make it wait
/// for the very refresh it performs.
public struct RemoteTokenRefresher: TokenRefresher {
  private let client: any HTTPClient
  private let now: @Sendable () -> Date

  /// Creates a refresher sending through `client`.
  public init(client: any HTTPClient, now: @escaping @Sendable () -> Date = { Date() }) {
    self.client = client
    self.now = now
  }

  /// Exchanges `tokens.refreshToken` for a new pair, whose expiry is counted from when the
  /// answer arrived.
  ///
  /// - Parameter tokens: the session's current tokens; only the refresh token is sent.
  /// - Returns: the new tokens.
  /// - Throws: the client's `NetworkError`; a rejected refresh token arrives as its 400, 401 or
  ///   403 `badStatus`, which ends the session.
  public func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    let pair = try await client.send(AuthEndpoints.refresh(refreshToken: tokens.refreshToken))
    return pair.tokens(receivedAt: now())
  }
}
