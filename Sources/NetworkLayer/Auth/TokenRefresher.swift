/// Exchanges a refresh token for a new token pair.
///
/// The auth interceptor calls this when an access token has expired or was rejected. The
/// implementation must send its request through a client *without* the auth interceptor: the
/// refresh call carries its own credential, and going through the interceptor would make it wait
/// for itself.
public protocol TokenRefresher: Sendable {
  /// Returns fresh tokens for `tokens.refreshToken`. Throws ``NetworkError/badStatus(code:bodyExcerpt:)``
  /// with 400, 401 or 403 when the server rejects the refresh token; any other error is treated
  /// as a passing failure that does not end the session.
  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens
}
