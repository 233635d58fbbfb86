public import Foundation

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
  /// ``RefusalFormat`` names) and said why in a body that format could read (by default RFC 9457
  /// problem details, or `{"field": ["message"]}`): a sentence for a person, if any, and the
  /// errors of each field, credentials redacted.
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
  /// The request needs credentials and there are none, or the server refused them again after a
  /// fresh token.
  case unauthorized
  /// The server rejected the refresh token, so the session has ended: the stored tokens have
  /// been cleared. `reason` describes the refresh call's own failure.
  case refreshFailed(reason: String)
  /// The tokens could not be refreshed for a reason that does not end the session (offline, a
  /// server error, the refresh's deadline); the next request refreshes again. The associated
  /// error is the refresh call's own failure, never that of the request that waited for it.
  indirect case refreshUnavailable(NetworkError)
  /// Tokens were refreshed more often than allowed in a short window, so the client stopped
  /// instead of looping; the session has ended and the stored tokens have been cleared.
  case excessiveRefresh
  /// The response body was larger than `limit` bytes (announced by `Content-Length` or counted
  /// while it arrived); the transfer was stopped there.
  case responseTooLarge(limit: Int)
}

extension NetworkError: CustomStringConvertible {
  /// A one-line account of the failure in words, with its status or code; safe to log.
  public var description: String {
    switch self {
    case .invalidURL(let detail): "invalid URL: \(detail)"
    case .invalidRequest(let detail): "invalid request: \(detail)"
    case .invalidResponse: "invalid response: not an HTTP response"
    case .badStatus(let code, let excerpt?): "bad status \(code): \(excerpt)"
    case .badStatus(let code, nil): "bad status \(code)"
    case .refused(let status, let message, let fieldErrors):
      Self.refusal(status: status, message: message, fieldErrors: fieldErrors)
    case .unacceptableContentType(let received, let accepted):
      "unacceptable content type \(received.map { "\"\($0)\"" } ?? "(none)"), expected \(accepted)"
    case .noData: "no data: the response body was empty"
    case .decodingFailed(let path, let reason):
      path.isEmpty ? "decoding failed: \(reason)" : "decoding failed at \(path): \(reason)"
    case .timeout: "timed out: no answer within the deadline"
    case .cancelled: "cancelled"
    case .transport(let code): "transport error: \(Self.transportReason(code: code)) (URLError code \(code))"
    case .unauthorized: "unauthorized: no valid credentials for this request"
    case .refreshFailed(let reason): "session refresh failed: \(reason)"
    case .refreshUnavailable(let cause): "session refresh unavailable: \(cause)"
    case .excessiveRefresh: "too many session refreshes in a short time"
    case .responseTooLarge(let limit): "response too large: the body exceeds the limit of \(limit) bytes"
    }
  }
}

extension NetworkError: LocalizedError {
  /// The ``description``, so that `localizedDescription` says what happened.
  public var errorDescription: String? { description }
}

extension NetworkError {
  /// The sentence for a person that the server put in its error body, if any: the message of a
  /// refusal, or the `detail`, `message`, `error` or `title` of a JSON error body, from the
  /// redacted excerpt.
  public var serverSentence: String? {
    switch self {
    case .refused(_, let message, _): message
    case .badStatus(_, let excerpt?): RefusalBody.sentence(inExcerpt: excerpt)
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

  /// `refused (HTTP 400): Check the form; title: This field may not be blank.`
  fileprivate static func refusal(status: Int, message: String?, fieldErrors: [String: [String]]) -> String {
    let fields = fieldErrors.sorted { $0.key < $1.key }.map {
      "\($0.key): \($0.value.joined(separator: " "))"
    }
    let parts = (message.map { [$0] } ?? []) + fields
    return "refused (HTTP \(status))" + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
  }
}
