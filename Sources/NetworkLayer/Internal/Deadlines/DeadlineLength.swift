import Dispatch
import Foundation

/// A deadline's length, with the forms a call hands on worked out once.
///
/// Each read of a `Duration`'s components is a 128-bit division, and a call needs its deadline
/// in two other units: the process's ``DeadlineSchedule`` counts in dispatch time, and Foundation
/// has a timeout of its own. A client keeps its default deadline in this form, so a call made
/// with that deadline converts nothing.
///
/// A deadline further away than a year is kept as a year in every form. Handed on as it is, a
/// deadline of centuries would crash the process: Foundation turns its timeout into whole
/// milliseconds in an `Int`, and a clock's `sleep` turns the instant into a `Duration`'s
/// components, and both trap when they overflow.
struct DeadlineLength: Sendable {
  /// The length, at most a year, for a clock other than `ContinuousClock` to sleep.
  let duration: Duration
  /// The length as the deadline schedule's dispatch timer counts it.
  let dispatchInterval: DispatchTimeInterval
  /// Foundation's own timeout, set well past the deadline so that only the client's deadline
  /// ever fires: the toolchain truncates sub-second values, and 0 means "at once".
  let transportTimeout: TimeInterval

  /// Whether the deadline has passed before the call begins: it is zero or negative.
  var hasPassed: Bool { duration <= .zero }

  /// The longest deadline kept.
  private static let longest = Duration.seconds(longestSeconds)
  private static let longestSeconds: Int64 = 365 * 24 * 3600

  init(_ duration: Duration) {
    self.duration = min(duration, Self.longest)
    let (seconds, attoseconds) = duration.components
    guard seconds < Self.longestSeconds else {
      dispatchInterval = .seconds(Int(Self.longestSeconds))
      transportTimeout = TimeInterval(Self.longestSeconds + 1)
      return
    }
    let interval = Duration.timeInterval(seconds: seconds, attoseconds: attoseconds)
    transportTimeout = max(1, interval.rounded(.up) + 1)
    let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    dispatchInterval = .nanoseconds(Int(max(0, nanoseconds)))
  }
}
