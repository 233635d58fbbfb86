public import DomainLayer
public import NetworkLayer

extension HTTPClient {
  /// Sends `endpoint` and fails with the domain's view of any network error, so every
  /// repository, including one written in a package that depends on Layered, translates errors
  /// in exactly one way.
  ///
  /// The translation (`NetworkError` case → `DomainError` case) is ``NetworkError/domainError``:
  /// - `cancelled` → `cancelled`; `timeout` → `timeout`;
  /// - `unauthorized`, `refreshFailed`, `excessiveRefresh` → `sessionExpired`;
  ///   `refreshUnavailable` → `offline` or `timeout` as its cause (a 407 or 511 too), else
  ///   `server(status:)`;
  /// - status 401, 403 and 451 → `forbidden`; status 404 and 410 → `notFound`; 408 →
  ///   `timeout`; 407 and 511, a proxy's or a network's own sign-in → `offline`;
  ///   status 429 and 500 and above → `server(status:)`; a refusal with no field named (400,
  ///   402, 409, 412, 413, 414, 415, 422, 431) → `rejected(message:fieldErrors:)` with the
  ///   server's sentence, if any; any other status → `unexpected(reason:)`;
  /// - an unreadable answer (`noData`, `decodingFailed`, `unacceptableContentType`,
  ///   `invalidResponse`, `responseTooLarge`) → `invalidData(reason:)`;
  /// - a request that could not be built (`invalidURL`, `invalidRequest`) → `unexpected(reason:)`;
  /// - a transport failure: timed out → `timeout`; not connected, cannot connect, cannot find
  ///   the host, DNS failure, connection lost, roaming off, data not allowed → `offline`;
  ///   cancelled → `cancelled`; a response that cannot be parsed or decoded (its framing, its
  ///   content encoding) → `invalidData(reason:)`; a redirect loop, a redirect to nowhere, or a
  ///   connection closed before any response → `server(status: nil)`; anything else →
  ///   `unexpected(reason:)`.
  ///
  /// Reasons come from the redacted `NetworkError.description`: never a token or a password.
  public func sendTranslatingErrors<Response>(
    _ endpoint: Endpoint<Response>
  ) async throws(DomainError) -> Response {
    try await sendTranslatingErrors(endpoint, fieldNames: [:])
  }

  /// ``sendTranslatingErrors(_:)``, with a refusal's field errors keyed by the domain's names:
  /// `fieldNames` maps a field as the backend names it (`content`, ASP.NET's `Title`) to the
  /// domain's (`title`), and a field it does not name keeps the backend's name.
  public func sendTranslatingErrors<Response>(
    _ endpoint: Endpoint<Response>, fieldNames: [String: String]
  ) async throws(DomainError) -> Response {
    do {
      return try await send(endpoint)
    } catch {
      let domain = error.domainError
      guard case .rejected(let message, let fieldErrors) = domain, !fieldNames.isEmpty else { throw domain }
      var named: [String: [String]] = [:]
      for (field, messages) in fieldErrors { named[fieldNames[field] ?? field, default: []] += messages }
      throw .rejected(message: message, fieldErrors: named)
    }
  }
}
