import NetworkLayer

extension HTTPClient {
  /// Sends a login or a refresh and reads its answer as every such answer is read: an absolute
  /// expiry by the server's clock (`readingExpiryByServerClock()`), and tokens no request could
  /// carry refused (`sendable()`). `RemoteSessionRepository` and `RemoteTokenRefresher` both
  /// send through here, so neither can skip a step.
  func issuedTokens(sending request: Endpoint<IssuedTokens>) async throws(NetworkError) -> IssuedTokens {
    try await send(request.readingExpiryByServerClock()).sendable()
  }
}
