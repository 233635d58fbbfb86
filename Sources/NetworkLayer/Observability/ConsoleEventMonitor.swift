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
/// `#12.1` is call 12, attempt 1. Durations are in milliseconds with one decimal below one
/// second, in seconds with one decimal from one second up.
///
/// Guarantees:
/// - It prints only what the event carries, which is already redacted (see ``Redactor``), and
///   error text only from `NetworkError.description`; it never describes anything else.
/// - The sink is called exactly once per event, with all of that event's lines joined by `\n`,
///   so lines of concurrent calls cannot interleave within an event.
/// - Control characters in printed values (a line break in a body or an error excerpt) are
///   escaped (`\n`), so a value can never forge a line of its own.
public struct ConsoleEventMonitor: NetworkEventMonitor {
  /// Whether a started request also shows its (redacted) headers, sorted by name, and body.
  public let verbose: Bool
  /// Text put at the start of every line, e.g. `"[net] "`.
  public let prefix: String
  private let sink: @Sendable (String) -> Void

  /// Creates a monitor that writes to `sink`, by default standard output.
  ///
  /// `sink` is called synchronously on the client's task, once per event: keep it fast.
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

  private func lines(for event: NetworkEvent) -> [String] {
    switch event {
    case .requestStarted(let summary):
      let line = "→ \(attempt(summary)) \(printable(summary.method)) \(printable(summary.url))"
      return verbose ? [line] + details(of: summary) : [line]
    case .responseReceived(let summary, let status, let bodyByteCount, let duration):
      return ["← \(attempt(summary)) \(status) (\(bytes(bodyByteCount))) in \(format(duration))"]
    case .retrying(let summary, let reason, let delay):
      let when = delay <= .zero ? "at once" : "in \(format(delay))"
      return ["↻ \(attempt(summary)) retry \(when): \(printable(reason.description))"]
    case .refreshStarted:
      return ["⟳ refresh started"]
    case .refreshSucceeded(let duration):
      return ["⟳ refresh succeeded in \(format(duration))"]
    case .refreshFailed(let error, let duration):
      return ["⟳ refresh failed after \(format(duration)): \(printable(error.description))"]
    case .failed(let summary, let error, let duration):
      return [
        "✗ \(call(summary)) failed after \(format(duration)): \(printable(error.description))"
      ]
    case .succeeded(let summary, let duration):
      return ["✓ \(call(summary)) done in \(format(duration))"]
    }
  }

  private func attempt(_ summary: RequestSummary) -> String {
    "#\(summary.callID).\(summary.attempt)"
  }

  // The final lines name the request too: in a log where calls interleave, the outcome of a
  // call can then be found without tracing its id back to its first line.
  private func call(_ summary: RequestSummary) -> String {
    "#\(summary.callID) \(printable(summary.method)) \(printable(summary.url))"
  }

  private func details(of summary: RequestSummary) -> [String] {
    let headers = summary.headers.sorted { lhs, rhs in
      let (left, right) = (lhs.key.lowercased(), rhs.key.lowercased())
      return left == right ? lhs.key < rhs.key : left < right
    }
    var lines = headers.map { "    \(printable($0.key)): \(printable($0.value))" }
    if let body = summary.body {
      lines.append("    body: \(printable(body))")
    }
    return lines
  }

  private func bytes(_ count: Int) -> String {
    count == 1 ? "1 byte" : "\(count) bytes"
  }

  /// `duration` in milliseconds with one decimal below one second, in seconds from one up.
  private func format(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    // The unit is chosen after rounding, so 999.96 ms reads "1.0 s", not "1000.0 ms".
    let tenthsOfMilliseconds = (milliseconds * 10).rounded()
    if abs(tenthsOfMilliseconds) < 10_000 {
      return "\(oneDecimal(tenths: tenthsOfMilliseconds)) ms"
    }
    return "\(oneDecimal(tenths: (milliseconds / 100).rounded())) s"
  }

  // Built from integers rather than `String(format:)`: the separator is always ".", whatever
  // the locale, and a huge value cannot trap on conversion.
  private func oneDecimal(tenths: Double) -> String {
    guard let whole = Int(exactly: tenths) else { return "\(tenths / 10)" }
    let sign = whole < 0 ? "-" : ""
    return "\(sign)\(whole.magnitude / 10).\(whole.magnitude % 10)"
  }

  /// `text` with control characters escaped, so that it stays on its line.
  private func printable(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator:
          result += "\\u{\(String(scalar.value, radix: 16))}"
        default:
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
