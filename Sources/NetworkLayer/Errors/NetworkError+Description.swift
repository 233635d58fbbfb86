public import Foundation

extension NetworkError: CustomStringConvertible {
  /// A one-line account of the failure in words, with its status or code; safe to log. Text the
  /// server sent (an excerpt, a sentence, a value that did not decode) has its control characters
  /// and direction overrides escaped, so it cannot forge a line of its own or reorder this one.
  public var description: String {
    LogText.printable(account)
  }

  private var account: String {
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
    case .excessiveRefresh: "the session's refreshes went in a loop"
    case .responseTooLarge(let limit): "response too large: the body exceeds the limit of \(limit) bytes"
    }
  }
}

extension NetworkError: LocalizedError {
  /// The ``description``, so that `localizedDescription` says what happened.
  public var errorDescription: String? { description }
}

extension NetworkError {
  /// `refused (HTTP 400): Check the form; title: This field may not be blank.`
  private static func refusal(status: Int, message: String?, fieldErrors: [String: [String]]) -> String {
    let fields = fieldErrors.sorted { $0.key < $1.key }.map {
      "\($0.key): \($0.value.joined(separator: " "))"
    }
    let parts = (message.map { [$0] } ?? []) + fields
    return "refused (HTTP \(status))" + (parts.isEmpty ? "" : ": " + parts.joined(separator: "; "))
  }
}
