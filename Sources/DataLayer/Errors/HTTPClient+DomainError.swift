public import DomainLayer
public import NetworkLayer

extension HTTPClient {
  /// Sends `endpoint` and fails with the domain's view of any network error, so every
  /// repository, including one written in a package that depends on Layered, translates errors
  /// in exactly one way.
  ///
  /// The translation (`NetworkError` case → `DomainError` case) is ``NetworkError/domainError``:
  /// - `cancelled` → `cancelled`; `timeout` → `timeout`;
  /// - `unauthorized`, `refreshFailed`, `excessiveRefresh` and status 401 → `sessionExpired`;
  ///   `refreshUnavailable` → `offline` or `timeout` as its cause, else `server(status:)`;
  /// - status 403 → `forbidden`; status 404 and 410 → `notFound`; status 500 and above →
  ///   `server(status:)`; any other status → `unexpected(reason:)`;
  /// - an unreadable answer (`noData`, `decodingFailed`, `unacceptableContentType`,
  ///   `invalidResponse`, `responseTooLarge`) → `invalidData(reason:)`;
  /// - a request that could not be built (`invalidURL`, `invalidRequest`) → `unexpected(reason:)`;
  /// - a transport failure: timed out → `timeout`; not connected, cannot connect, cannot find
  ///   the host, DNS failure, connection lost, roaming off, data not allowed → `offline`;
  ///   cancelled → `cancelled`; a response that cannot be parsed or decoded (its framing, its
  ///   content encoding) → `invalidData(reason:)`; anything else → `unexpected(reason:)`.
  ///
  /// Reasons are built from `NetworkError.description`, which is redacted, so they never carry
  /// a token or a password.
  public func sendTranslatingErrors<Response>(
    _ endpoint: Endpoint<Response>
  ) async throws(DomainError) -> Response {
    do {
      return try await send(endpoint)
    } catch {
      throw error.domainError
    }
  }
}
