/// Every way a request can fail, as the network layer sees it.
///
/// Thrown with typed throws by every client call. Cases carry only what helps a developer or a
/// retry decision, never request headers or bodies, and every text taken from a response has
/// credentials removed, by name and by value: a description can be logged even when the server
/// echoes the request.
public enum NetworkError: Error, Sendable, Hashable {
  /// The endpoint and base URL do not form a valid URL.
  case invalidURL(String)
  /// The request could not be built, for example a header value containing a line break.
  case invalidRequest(String)
  /// The response was not an HTTP response.
  case invalidResponse
  /// The server answered with a status the endpoint does not accept.
  case badStatus(code: Int, bodyExcerpt: String?)
  /// The server refused the request as it was (400, 409 or 422, or another status the client's
  /// ``RefusalFormat`` names) and said why in a body that format could read (by default one of
  /// ``RefusalFormat/standard``'s shapes): a sentence for a person, if any, and the errors of
  /// each field, credentials redacted.
  case refused(status: Int, message: String?, fieldErrors: [String: [String]])
  /// The body's `Content-Type` is not one the endpoint accepts (`nil`: none was sent).
  case unacceptableContentType(received: String?, accepted: String)
  /// The body was empty where a value was expected.
  case noData
  /// The body could not be decoded; `path` says where (`[3].title`).
  case decodingFailed(path: String, reason: String)
  /// The call did not finish within its deadline.
  case timeout
  /// The call was cancelled by its caller.
  case cancelled
  /// The transport failed; `code` is the `URLError.Code` raw value. The description says what
  /// happened in words ("connection refused", "host not found") and keeps the code.
  case transport(code: Int)
  /// The request needs credentials and there are none: signed out, or the session has ended. (A
  /// renewed token the server refuses too fails with the server's own refusal.)
  case unauthorized
  /// The server rejected the refresh token, so the session has ended: the stored tokens have
  /// been cleared. `reason` describes the refresh call's own failure.
  case refreshFailed(reason: String)
  /// The tokens could not be refreshed for a reason that does not end the session (offline, a
  /// server error, the refresh's deadline); the next request refreshes again. The associated
  /// error is the refresh call's own failure, never that of the request that waited for it.
  indirect case refreshUnavailable(NetworkError)
  /// Refreshes went in a loop (renewed tokens refused again, or due as they arrived), so the
  /// client stopped; the session has ended and the stored tokens have been cleared.
  case excessiveRefresh
  /// The response body was larger than `limit` bytes (announced by `Content-Length` or counted
  /// while it arrived); the transfer was stopped there.
  case responseTooLarge(limit: Int)
}

extension NetworkError {
  /// The sentence for a person that the server put in its error body, if any: a refusal's
  /// message, or what a JSON or one-line plain-text body says in the shapes backends write
  /// (`message`, `detail`, OAuth's `error_description`, `error.message`, Vapor's `reason`, Falcon's
  /// `description`, an `errors` list, in any case), from the redacted excerpt if it holds it whole.
  /// Never blank, a reason phrase ("Bad Request", "404 Not Found") or a code (`LOGIN_BAD_CREDENTIALS`).
  public var serverSentence: String? {
    switch self {
    case .refused(_, let message, _): message
    case .badStatus(let code, let excerpt?): RefusalBody.sentence(inExcerpt: excerpt, status: code)
    default: nil
    }
  }

  /// The status of the response that ended the call, when a status did.
  public var status: Int? {
    switch self {
    case .badStatus(let code, _), .refused(let code, _, _): code
    default: nil
    }
  }
}
