import Dispatch
import LayeredSupport

/// Every real-clock deadline of the process on one dispatch timer.
///
/// A dispatch timer source per call costs two wake-ups of libdispatch's manager thread (one to
/// arm it, one to cancel it), a measurable share of a fast request. Here, adding a deadline is a
/// dictionary insert under a lock, and the timer is re-armed only when the new deadline is the
/// earliest; with the same deadline on every call, later calls never re-arm it. Cancelling removes
/// the entry, which releases its action at once; the timer may then wake once for nothing, and
/// re-arms itself for the earliest deadline left.
final class DeadlineSchedule: Sendable {
  /// The schedule every ``DeadlineTimer`` on `ContinuousClock` uses.
  static let shared = DeadlineSchedule()

  private struct Entry {
    let deadline: DispatchTime
    let fire: @Sendable () -> Void
  }

  private struct State: @unchecked Sendable {
    // Only touched under the lock; `DispatchSourceTimer` itself is thread-safe but not `Sendable`.
    let timer: any DispatchSourceTimer
    var entries: [Int: Entry] = [:]
    var nextID = 0
    /// When the timer will next fire, or `nil` when it is not armed.
    var armedFor: DispatchTime?
  }

  private let state: Locked<State>

  private init() {
    // A queue of its own, so a deadline does not wait behind whatever work fills the global
    // queues; what it runs (ending a race) is short.
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "NetworkLayer.DeadlineSchedule"))
    state = Locked(State(timer: timer))
    timer.setEventHandler { [weak self] in self?.fireDue() }
    timer.activate()
  }

  /// Calls `fire` on the schedule's queue once `deadline` has passed, unless cancelled first.
  /// Returns the key that cancels it.
  func add(at deadline: DispatchTime, fire: @escaping @Sendable () -> Void) -> Int {
    state.withLock { state in
      let id = state.nextID
      state.nextID &+= 1
      state.entries[id] = Entry(deadline: deadline, fire: fire)
      if let armed = state.armedFor, armed <= deadline { return id }
      state.armedFor = deadline
      state.timer.schedule(deadline: deadline, leeway: .milliseconds(1))
      return id
    }
  }

  /// Removes the deadline `id`, releasing its action; `fire` is not called afterwards unless it
  /// was already running.
  func cancel(_ id: Int) {
    // The removed entry is released outside the lock: its action may hold the last reference to
    // a race whose deinit should not run under this lock.
    let removed = state.withLock { $0.entries.removeValue(forKey: id) }
    _ = removed
  }

  private func fireDue() {
    let now = DispatchTime.now()
    let due = state.withLock { state -> [@Sendable () -> Void] in
      var due: [@Sendable () -> Void] = []
      var dueIDs: [Int] = []
      var next: DispatchTime?
      for (id, entry) in state.entries {
        if entry.deadline <= now {
          dueIDs.append(id)
          due.append(entry.fire)
        } else if next.map({ entry.deadline < $0 }) ?? true {
          next = entry.deadline
        }
      }
      for id in dueIDs { state.entries.removeValue(forKey: id) }
      state.armedFor = next
      if let next { state.timer.schedule(deadline: next, leeway: .milliseconds(1)) }
      return due
    }
    for fire in due { fire() }
  }
}
