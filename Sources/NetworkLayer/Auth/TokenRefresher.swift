/// Exchanges a refresh token for a new token pair.
///
/// The auth interceptor calls it when an access token has expired or was rejected. Send through
/// a client *without* the auth interceptor, or the refresh would wait for itself.
public protocol TokenRefresher: Sendable {
  /// Returns fresh tokens for `tokens.refreshToken`. Throws ``NetworkError/badStatus(code:bodyExcerpt:)``
  /// with 400, 401 or 403 when the server rejects the refresh token; any other error is treated
  /// as a passing failure that does not end the session.
  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens
}
