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

  public func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    let pair = try await client.send(AuthEndpoints.refresh(refreshToken: tokens.refreshToken))
    return pair.tokens(receivedAt: now())
  }
}
