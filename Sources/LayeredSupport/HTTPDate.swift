package import Foundation

/// Reads an HTTP date (RFC 9110, section 5.6.7), as a `Date` or `Retry-After` header carries it.
///
/// Servers must send the IMF-fixdate form, and a recipient must read all three:
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`;
/// - the obsolete RFC 850 form: `Sunday, 06-Nov-94 08:49:37 GMT`;
/// - the obsolete asctime form: `Sun Nov  6 08:49:37 1994`.
package enum HTTPDate {
  /// The moment `value` names, or `nil` when it is none of the three forms exactly (a wrong day
  /// of the week, another zone, other case or padding, trailing text, any character that is
  /// not printable ASCII). Spaces and tabs around it are ignored. An RFC 850 two-digit year is
  /// read as at most 50 years after `now`, as RFC 9110 requires. Thread-safe: every call uses
  /// a formatter of its own.
  package static func moment(_ value: String, now: Date) -> Date? {
    // asctime pads a one-digit day with a space ("Nov  6"); collapsing runs of spaces lets one
    // pattern read both widths.
    let text = value.trimmingCharacters(in: .whitespaces)
      .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    // The grammar is printable ASCII. Anything else is refused before the formatter sees it:
    // swift-corelibs-foundation's `DateFormatter` traps when its parse stops inside a character
    // ("GMT" followed by a combining accent), which would let a server end the app.
    guard text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
    // A formatter per call, not one shared: `DateFormatter` is not safe to share between
    // threads, and a date is read once per login, refresh or retry.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.twoDigitStartDate = now.addingTimeInterval(-50 * 365.2425 * 86_400)
    for format in formats {
      formatter.dateFormat = format
      // The parser accepts a missing or truncated "GMT" and reads one form with another's
      // pattern; writing the date back and comparing keeps only exact, case-sensitive matches,
      // with the right day of the week.
      if let date = formatter.date(from: text), formatter.string(from: date) == text {
        return date
      }
    }
    return nil
  }

  private static let formats = [
    "EEE, dd MMM yyyy HH:mm:ss 'GMT'",
    "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
    "EEE MMM d HH:mm:ss yyyy",
  ]
}
