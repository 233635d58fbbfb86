/// Writes each ``NetworkEvent`` as readable text, for development and support logs.
///
/// One event gives one line, except a started request in verbose mode, which adds one line per
/// header and one for the body. Every line starts with ``prefix`` and then a marker, so a log
/// can be filtered with grep:
///
/// ```
/// → #12.1 GET http://host/todos
/// ← #12.1 200 (16085 bytes) in 3.2 ms
/// ↻ #12.1 retry in 400.0 ms: bad status 503
/// ⟳ refresh started
/// ⟳ refresh succeeded in 12.0 ms
/// ⟳ refresh failed after 12.0 ms: session refresh failed: …
/// ✗ #12 GET http://host/todos failed after 1.2 s: timed out: no answer within the deadline
/// ✓ #12 GET http://host/todos done in 5.0 ms
/// ```
///
/// `#12.1` is call 12, attempt 1. It prints only what the event carries, already redacted, and
/// calls the sink once per event, so lines of concurrent calls cannot interleave; a control
/// character in a value is escaped, so no value can forge a line of its own.
public struct ConsoleEventMonitor: NetworkEventMonitor {
  /// Whether a started request also shows its (redacted) headers, sorted by name, and body.
  public let verbose: Bool
  /// Text put at the start of every line, e.g. `"[net] "`.
  public let prefix: String
  private let sink: @Sendable (String) -> Void

  /// Creates a monitor that writes to `sink` (standard output by default), synchronously on the
  /// client's task: keep it fast.
  public init(
    verbose: Bool = false,
    prefix: String = "",
    sink: @escaping @Sendable (String) -> Void = { print($0) }
  ) {
    self.verbose = verbose
    self.prefix = prefix
    self.sink = sink
  }

  /// Formats `event` and writes it to the sink.
  public func record(_ event: NetworkEvent) {
    sink(lines(for: event).map { prefix + $0 }.joined(separator: "\n"))
  }

  // Values are escaped here; an error goes in as it is, its description being one line already.
  private func lines(for event: NetworkEvent) -> [String] {
    switch event {
    case .requestStarted(let summary):
      let line =
        "→ \(attempt(summary)) \(LogText.printable(summary.method)) \(LogText.printable(summary.url))"
      return verbose ? [line] + details(of: summary) : [line]
    case .responseReceived(let summary, let status, let bodyByteCount, let duration):
      return [
        "← \(attempt(summary)) \(status) (\(LogText.byteCount(bodyByteCount))) in \(LogText.duration(duration))"
      ]
    case .retrying(let summary, let reason, let delay):
      let when = delay <= .zero ? "at once" : "in \(LogText.duration(delay))"
      return ["↻ \(attempt(summary)) retry \(when): \(reason)"]
    case .refreshStarted:
      return ["⟳ refresh started"]
    case .refreshSucceeded(let duration):
      return ["⟳ refresh succeeded in \(LogText.duration(duration))"]
    case .refreshFailed(let error, let duration):
      return ["⟳ refresh failed after \(LogText.duration(duration)): \(error)"]
    case .failed(let summary, let error, let duration):
      return [
        "✗ \(call(summary)) failed after \(LogText.duration(duration)): \(error)"
      ]
    case .succeeded(let summary, let duration):
      return ["✓ \(call(summary)) done in \(LogText.duration(duration))"]
    }
  }

  private func attempt(_ summary: RequestSummary) -> String {
    "#\(summary.callID).\(summary.attempt)"
  }

  // A call's last line names the request too, so its outcome is found without tracing the id.
  private func call(_ summary: RequestSummary) -> String {
    "#\(summary.callID) \(LogText.printable(summary.method)) \(LogText.printable(summary.url))"
  }

  private func details(of summary: RequestSummary) -> [String] {
    let headers = summary.headers.sorted { lhs, rhs in
      let (left, right) = (lhs.key.lowercased(), rhs.key.lowercased())
      return left == right ? lhs.key < rhs.key : left < right
    }
    var lines = headers.map { "    \(LogText.printable($0.key)): \(LogText.printable($0.value))" }
    if let body = summary.body {
      lines.append("    body: \(LogText.printable(body))")
    }
    return lines
  }
}
