import Dispatch
import LayeredSupport

/// A one-shot timer that can be cancelled, and that lets go of everything it holds when it is.
///
/// On `ContinuousClock` (every real client) it is an entry in the process's one
/// ``DeadlineSchedule``: cancelling it removes the entry at once. A cancelled `Task.sleep` or
/// `clock.sleep` would instead keep its memory until its original deadline, so a client with a
/// long default deadline would hold on to every finished call's timer until then. Any other clock
/// (a test's manual clock) is slept on in a task, which cancelling ends.
struct DeadlineTimer: Sendable {
  /// When the timer fires: a dispatch time on the schedule, or a question to the other clock.
  private enum End: Sendable {
    case scheduled(DispatchTime)
    case onClock(@Sendable () -> Duration)
  }

  private let end: End
  private let stop: @Sendable () -> Void

  /// Calls `fire` once `length` has passed on `clock`, unless cancelled first.
  static func start(
    after length: DeadlineLength,
    on clock: any Clock<Duration>,
    fire: @escaping @Sendable () -> Void
  ) -> DeadlineTimer {
    if type(of: clock) == ContinuousClock.self {
      let schedule = DeadlineSchedule.shared
      let end = DispatchTime.now() + length.dispatchInterval
      let id = schedule.add(at: end, fire: fire)
      return DeadlineTimer(end: .scheduled(end)) { schedule.cancel(id) }
    }
    return sleeping(on: clock, for: length.duration, fire: fire)
  }

  private static func sleeping<C: Clock<Duration>>(
    on clock: C, for duration: Duration, fire: @escaping @Sendable () -> Void
  ) -> DeadlineTimer {
    let end = clock.now.advanced(by: duration)
    let task = Task {
      do {
        try await clock.sleep(until: end, tolerance: nil)
      } catch {
        return
      }
      fire()
    }
    return DeadlineTimer(end: .onClock { max(clock.now.duration(to: end), .zero) }) { task.cancel() }
  }

  /// How long until the timer fires; zero once it is due.
  var timeLeft: Duration {
    switch end {
    case .scheduled(let end):
      let now = DispatchTime.now().uptimeNanoseconds
      return end.uptimeNanoseconds > now ? .nanoseconds(end.uptimeNanoseconds - now) : .zero
    case .onClock(let timeLeft):
      return timeLeft()
    }
  }

  /// Stops the timer; `fire` is not called afterwards unless it was already running.
  func cancel() {
    stop()
  }
}
