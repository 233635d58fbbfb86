public import NetworkLayer

/// The sample API's login contract: `POST /auth/login` with `{username, password}` and
/// `POST /auth/refresh` with `{refreshToken}`, both answering ``TokenPairDTO``; no logout request.
public struct SampleAPIAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct RefreshRequest: Encodable, Sendable {
    var refreshToken: String
  }

  /// Creates the contract.
  public init() {}

  /// `POST /auth/login`. Not idempotent and not retried: a login is the user's explicit action.
  public func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<TokenPairDTO>(
      method: .post, path: ["auth", "login"], body: .json(Credentials(username: username, password: password))
    ).map(\.issued)
  }

  /// `POST /auth/refresh` with the session's refresh token.
  public func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Endpoint<TokenPairDTO>(
      method: .post, path: ["auth", "refresh"], body: .json(RefreshRequest(refreshToken: tokens.refreshToken))
    ).map(\.issued)
  }
}
