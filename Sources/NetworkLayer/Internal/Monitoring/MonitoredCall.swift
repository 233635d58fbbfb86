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
  private let state = Locked(State())

  private init(id: Int, started: ContinuousClock.Instant, monitors: [any NetworkEventMonitor]) {
    self.id = id
    self.started = started
    self.monitors = monitors
  }

  /// A call that starts now, with the next number.
  static func start(monitors: [any NetworkEventMonitor]) -> MonitoredCall {
    MonitoredCall(id: CallCounter.next(), started: .now, monitors: monitors)
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

  /// The latest attempt's summary or, for a call that failed before its first attempt was
  /// built, one made from the endpoint.
  private func latestSummary<Response>(_ endpoint: Endpoint<Response>) -> RequestSummary {
    state.withLock { $0.summary }
      ?? RequestSummary(
        callID: id, attempt: 0, method: endpoint.request.method.rawValue, path: endpoint.request.path)
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
