import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Something the client did, for logging and metrics.
///
/// Events are built with credentials already redacted (see ``Redactor``), by name and by value,
/// so no monitor can leak them, however it prints.
public enum NetworkEvent: Sendable {
  /// An attempt is about to be sent.
  case requestStarted(RequestSummary)
  /// An attempt got an HTTP response (any status), after `duration`.
  case responseReceived(RequestSummary, status: Int, bodyByteCount: Int, duration: Duration)
  /// An attempt failed and will be retried after `delay` (zero: at once).
  case retrying(RequestSummary, reason: NetworkError, delay: Duration)
  /// A token refresh started.
  case refreshStarted
  /// A token refresh succeeded after `duration`.
  case refreshSucceeded(duration: Duration)
  /// A token refresh failed after `duration`: ``NetworkError/refreshFailed(reason:)`` when the
  /// session has ended, otherwise the refresh's own failure, and the session goes on.
  case refreshFailed(NetworkError, duration: Duration)
  /// A call failed for good after `duration` (all attempts included).
  case failed(RequestSummary, NetworkError, duration: Duration)
  /// A call succeeded after `duration` (all attempts included).
  case succeeded(RequestSummary, duration: Duration)
}

/// One attempt of a call, described without secrets.
public struct RequestSummary: Sendable, Hashable {
  /// A number identifying the call; every attempt of one call shares it.
  public let callID: Int
  /// 1 for the first attempt, 2 for the first retry, …
  public let attempt: Int
  /// The method, e.g. `GET`.
  public let method: String
  /// The full URL, query included, with user-info and credential query values redacted.
  public let url: String
  /// Request headers with credentials redacted.
  public let headers: [String: String]
  /// The request body as text with credential fields redacted, or `nil` when there is none.
  public let body: String?

  /// Creates a summary of `request`, redacting credentials, and `credentials` (values the
  /// request carries under names that do not announce them) wherever they appear.
  public init(callID: Int, attempt: Int, request: URLRequest, credentials: [String] = []) {
    self.callID = callID
    self.attempt = attempt
    self.method = request.httpMethod ?? "GET"
    // Names announce most credentials; the request's own secrets then go by value too.
    let secrets = RequestSecrets(request: request, credentials: credentials)
    self.url = secrets.scrub(request.url.map(Redactor.redact(url:)) ?? "(no URL)")
    self.headers = Redactor.redact(headers: request.allHTTPHeaderFields ?? [:]).mapValues {
      secrets.scrub($0)
    }
    self.body = request.httpBody.flatMap(Redactor.redact(body:)).map { secrets.scrub($0) }
  }

  /// A summary for a call that failed before any request was built (an invalid URL, say).
  init(callID: Int, attempt: Int, method: String, path: [String]) {
    self.callID = callID
    self.attempt = attempt
    self.method = method
    self.url = "/" + path.joined(separator: "/")
    self.headers = [:]
    self.body = nil
  }
}

/// Receives the client's events. Called synchronously on the client's task: keep it fast.
public protocol NetworkEventMonitor: Sendable {
  /// Handles one event.
  func record(_ event: NetworkEvent)
}
