public import DataLayer
public import NetworkLayer

/// How the backend signs in: `POST /api/token/` with `{username, password}` answers
/// `{access, refresh}`, the expiry only in the access token's `exp` and `iat` claims; `POST
/// /api/token/refresh/` with `{refresh}` answers a new pair and blacklists the old refresh token;
/// `POST /api/token/blacklist/` with `{refresh}` ends the session.
public struct JWTAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct RefreshToken: Encodable, Sendable {
    var refresh: String
  }

  private struct TokenPair: Decodable, Sendable {
    var access: String
    var refresh: String?
  }

  /// Creates the contract.
  public init() {}

  /// `POST /api/token/`.
  public func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "token"],
        body: .json(Credentials(username: username, password: password))))
  }

  /// `POST /api/token/refresh/`; the answer's refresh token replaces the one sent.
  public func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "token", "refresh"],
        body: .json(RefreshToken(refresh: tokens.refreshToken))))
  }

  /// `POST /api/token/blacklist/`.
  public func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint<NoContent>(
      method: .post, path: ["api", "token", "blacklist"],
      body: .json(RefreshToken(refresh: tokens.refreshToken))
    )
    .endingWithSlash()
  }

  /// The backend's `detail` ("No active account found with the given credentials"), written for
  /// people.
  public func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  private func issuing(_ endpoint: Endpoint<TokenPair>) -> Endpoint<IssuedTokens> {
    endpoint.endingWithSlash().map { pair in
      IssuedTokens(accessToken: pair.access, refreshToken: pair.refresh, expiry: .jwt(pair.access))
    }
  }
}
