public import Foundation
import LayeredSupport

/// Reads the value of a `Retry-After` response header (RFC 9110, section 10.2.3) as a delay.
///
/// A namespace rather than a value: the header is read once, at the moment a retry is decided, so
/// there is nothing to keep.
public enum RetryAfter {
  /// The delay `value` asks for, counted from `now`, or `nil` when `value` is not a valid
  /// `Retry-After`.
  ///
  /// - delta-seconds: one or more ASCII digits, optionally surrounded by spaces or tabs, is that
  ///   many seconds. A number too large to represent saturates to `Int64.max` seconds instead of
  ///   being rejected, so a server asking for a very long wait is never mistaken for one that gave
  ///   no advice.
  /// - HTTP-date: the IMF-fixdate form (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete RFC 850
  ///   (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`) forms, all in
  ///   GMT, are the time from `now` until that date. A date at or before `now` is `.zero`. An RFC
  ///   850 two-digit year is read as at most 50 years ahead of `now`, as RFC 9110 requires.
  /// - Anything else, including an empty value, a sign, a fraction, trailing text, a character
  ///   that is not printable ASCII, or a date whose day of the week, case or padding does not
  ///   match its form exactly, is `nil`.
  ///
  /// Thread-safe: every call uses a formatter of its own.
  public static func delay(from value: String, now: Date) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = deltaSeconds(trimmed) {
      return seconds
    }
    guard let date = HTTPDate.moment(trimmed, now: now) else { return nil }
    return duration(from: now, to: date)
  }

  private static func deltaSeconds(_ text: String) -> Duration? {
    guard text.isDecimalDigits else { return nil }
    return .seconds(Int64(text) ?? .max)
  }

  private static func duration(from now: Date, to date: Date) -> Duration {
    let interval = date.timeIntervalSince(now)
    guard interval > 0 else { return .zero }
    guard interval < Double(Int64.max) else { return .seconds(Int64.max) }
    // Whole seconds are converted exactly; only a fractional rest goes through floating point.
    let whole = interval.rounded(.down)
    return .seconds(Int64(whole)) + .seconds(interval - whole)
  }
}
