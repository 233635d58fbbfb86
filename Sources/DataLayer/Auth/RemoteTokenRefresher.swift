public import Foundation
public import NetworkLayer

/// A `TokenRefresher` that sends its ``AuthContract``'s refresh request.
///
/// Give it a client built *without* the auth interceptor (`AppContainer` does): the refresh
/// request carries its own credential, and sending it through the interceptor would make it wait
/// for the very refresh it performs.
public struct RemoteTokenRefresher: TokenRefresher {
  private let client: any HTTPClient
  private let contract: any AuthContract
  private let now: @Sendable () -> Date
  /// A bound for the refresh request when its endpoint sets none: signing out sets its own.
  var deadline: Duration?

  /// Creates a refresher sending `contract`'s refresh request through `client`.
  public init(
    client: any HTTPClient,
    contract: any AuthContract = SampleAPIAuthContract(),
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.client = client
    self.contract = contract
    self.now = now
  }

  /// Exchanges `tokens` for new ones: an expiry is counted from when the answer arrived (an
  /// absolute one by the server's clock, see `TokenExpiry.at(_:)`), a refresh token the answer
  /// does not rotate is kept, and tokens no request could carry fail as `decodingFailed`, which
  /// keeps the session. A session that holds no refresh token (its backend issues none) cannot
  /// be renewed: it fails with `unauthorized` without a request, which ends the session.
  ///
  /// - Parameter tokens: the session's current tokens, for the contract to send what it needs.
  /// - Returns: the new tokens.
  /// - Throws: the client's `NetworkError`; a rejected refresh token arrives with its status,
  ///   which the auth interceptor checks against the contract's ``AuthContract/rejectedRefreshStatuses``
  ///   (`AppContainer` hands them over).
  public func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    guard !tokens.refreshToken.isEmpty else { throw .unauthorized }
    // The tokens are removed by value from anything reported, whatever the contract calls them.
    var request = contract.refresh(tokens)
    request.deadline = request.deadline ?? deadline
    request.credentials += [tokens.accessToken, tokens.refreshToken]
    return try await client.issuedTokens(sending: request).tokens(receivedAt: now(), replacing: tokens)
  }
}
