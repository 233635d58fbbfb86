import LayeredSupport

/// How the console monitor and `NetworkError.description` write values: escaped so that no
/// value can forge a line of its own, and numbers written the same whatever the locale.
enum LogText {
  /// `1 byte`, `16085 bytes`.
  static func byteCount(_ count: Int) -> String {
    count == 1 ? "1 byte" : "\(count) bytes"
  }

  /// `duration` in milliseconds with one decimal below one second, in seconds from one up.
  static func duration(_ duration: Duration) -> String {
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
  private static func oneDecimal(tenths: Double) -> String {
    guard let whole = Int(exactly: tenths) else { return "\(tenths / 10)" }
    let sign = whole < 0 ? "-" : ""
    return "\(sign)\(whole.magnitude / 10).\(whole.magnitude % 10)"
  }

  /// `text` escaped so that it stays on its line and reads in the order it was sent (see
  /// `PrintableText`, which the screens' descriptions share).
  static func printable(_ text: String) -> String {
    PrintableText.escaping(text)
  }
}
