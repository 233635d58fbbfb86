import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One call as its monitors see it: its number, its timing, the latest attempt's summary, and
/// the events it reports.
///
/// ``URLSessionHTTPClient`` makes one only when it has monitors, so a call without monitors
/// neither takes the counter's lock nor redacts its requests.
final class MonitoredCall: Sendable {
  private struct State {
    var summary: RequestSummary?
    /// When the latest attempt was sent, since the call's start.
    var sentAt = Duration.zero
  }

  private let id: Int
  private let started: ContinuousClock.Instant
  private let monitors: [any NetworkEventMonitor]
  /// The client's base URL, for naming a call that ends before its first attempt is sent.
  private let baseURL: URL
  private let state = Locked(State())

  private init(id: Int, started: ContinuousClock.Instant, monitors: [any NetworkEventMonitor], baseURL: URL) {
    self.id = id
    self.started = started
    self.monitors = monitors
    self.baseURL = baseURL
  }

  /// A call to the API at `baseURL` that starts now, with the next number.
  static func start(monitors: [any NetworkEventMonitor], baseURL: URL) -> MonitoredCall {
    MonitoredCall(id: CallCounter.next(), started: .now, monitors: monitors, baseURL: baseURL)
  }

  /// Reports attempt number `attempt`, about to send `request`, redacted.
  func attemptStarted(_ attempt: Int, request: URLRequest, credentials: [String]) {
    let summary = RequestSummary(callID: id, attempt: attempt, request: request, credentials: credentials)
    let elapsed = elapsed
    state.withLock { state in
      state.summary = summary
      state.sentAt = elapsed
    }
    report(.requestStarted(summary))
  }

  func responseReceived(_ response: HTTPURLResponse, bodyByteCount: Int) {
    let (summary, sentAt) = state.withLock { ($0.summary, $0.sentAt) }
    guard let summary else { return }
    report(
      .responseReceived(
        summary, status: response.statusCode, bodyByteCount: bodyByteCount, duration: elapsed - sentAt))
  }

  func retrying(after reason: NetworkError, delay: Duration) {
    guard let summary = state.withLock({ $0.summary }) else { return }
    report(.retrying(summary, reason: reason, delay: delay))
  }

  func succeeded<Response>(_ endpoint: Endpoint<Response>) {
    report(.succeeded(latestSummary(endpoint), duration: elapsed))
  }

  func failed<Response>(_ endpoint: Endpoint<Response>, with failure: NetworkError) {
    report(.failed(latestSummary(endpoint), failure, duration: elapsed))
  }

  private var elapsed: Duration {
    ContinuousClock.now - started
  }

  /// The latest attempt's summary or, for a call that failed before its first attempt was sent,
  /// one of the request the endpoint makes (the interceptors' changes aside), or of its path
  /// when it makes none (an invalid URL).
  private func latestSummary<Response>(_ endpoint: Endpoint<Response>) -> RequestSummary {
    if let summary = state.withLock({ $0.summary }) { return summary }
    guard let request = try? endpoint.urlRequest(relativeTo: baseURL) else {
      return RequestSummary(
        callID: id, attempt: 0, method: endpoint.request.method.rawValue, path: endpoint.request.path)
    }
    return RequestSummary(callID: id, attempt: 0, request: request, credentials: endpoint.request.credentials)
  }

  private func report(_ event: NetworkEvent) {
    for monitor in monitors { monitor.record(event) }
  }
}

/// Numbers calls so that every attempt of one call can be grouped in logs.
private enum CallCounter {
  private static let counter = Locked(0)

  static func next() -> Int {
    counter.withLock { value in
      value += 1
      return value
    }
  }
}
