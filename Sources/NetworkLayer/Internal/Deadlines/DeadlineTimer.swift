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
  private let stop: @Sendable () -> Void

  /// Calls `fire` once `length` has passed on `clock`, unless cancelled first.
  static func start(
    after length: DeadlineLength,
    on clock: any Clock<Duration>,
    fire: @escaping @Sendable () -> Void
  ) -> DeadlineTimer {
    if type(of: clock) == ContinuousClock.self {
      let schedule = DeadlineSchedule.shared
      let id = schedule.add(at: .now() + length.dispatchInterval, fire: fire)
      return DeadlineTimer { schedule.cancel(id) }
    }
    let duration = length.duration
    let task = Task {
      do {
        try await clock.sleep(for: duration)
      } catch {
        return
      }
      fire()
    }
    return DeadlineTimer { task.cancel() }
  }

  /// Stops the timer; `fire` is not called afterwards unless it was already running.
  func cancel() {
    stop()
  }
}
