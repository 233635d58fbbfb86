import NetworkLayer

/// The authentication endpoints of the API.
enum AuthEndpoints {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct RefreshRequest: Encodable, Sendable {
    var refreshToken: String
  }

  /// `POST /auth/login`. Not idempotent and not retried: a login is the user's explicit action.
  static func login(username: String, password: String) -> Endpoint<TokenPairDTO> {
    Endpoint(
      method: .post, path: ["auth", "login"], body: .json(Credentials(username: username, password: password))
    )
  }

  /// `POST /auth/refresh`. Never sent through the auth interceptor: it carries its own credential.
  static func refresh(refreshToken: String) -> Endpoint<TokenPairDTO> {
    Endpoint(
      method: .post, path: ["auth", "refresh"], body: .json(RefreshRequest(refreshToken: refreshToken)))
  }
}
