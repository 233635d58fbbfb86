import Foundation

/// Reads a `Date` response header as RFC 9110 has servers write it: the IMF-fixdate form,
/// `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
  /// The moment `value` names, or `nil` when it is not an IMF-fixdate exactly (the obsolete forms
  /// a server must not send, a wrong day of the week, another zone).
  static func moment(_ value: String) -> Date? {
    // A formatter per call: `DateFormatter` is not safe to share between threads, and a date
    // is read once per login or refresh.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    let text = value.trimmingCharacters(in: .whitespaces)
    // The parser is lenient; writing the date back keeps only exact matches.
    guard let date = formatter.date(from: text), formatter.string(from: date) == text else { return nil }
    return date
  }
}
