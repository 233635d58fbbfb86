/// Exchanges a refresh token for a new token pair.
///
/// The auth interceptor calls it when an access token has expired or was rejected. Send through
/// a client *without* the auth interceptor, or the refresh would wait for itself.
public protocol TokenRefresher: Sendable {
  /// Returns fresh tokens for `tokens.refreshToken`. Throws the server's answer when it rejects
  /// the refresh token (a ``NetworkError/badStatus(code:bodyExcerpt:)`` or
  /// ``NetworkError/refused(status:message:fieldErrors:)`` whose status the interceptor was told
  /// means rejection: 400, 401 or 403 by default), or ``NetworkError/unauthorized``; any other
  /// error is treated as a passing failure that does not end the session.
  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens
}
