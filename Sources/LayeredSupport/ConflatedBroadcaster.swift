/// Holds a current value on the main actor and hands the latest one to any number of observers,
/// each at its own pace, the way Kotlin's `StateFlow` does.
///
/// Each value gets a version number. An observer remembers the version it saw last and asks for
/// anything newer: it gets the current value at once if there is one, or waits for the next.
/// An observer that falls behind therefore skips straight to the latest value, never a stale one,
/// and once the broadcaster is finished every observer still gets the final value before its end.
///
/// Why the main actor: values are published there (by a view model), and reading them there
/// too needs no lock. A burst of values published in one turn of the main actor costs no
/// wake-up and meets no contention: an observer on another thread waits for its turn on the main
/// actor and then takes only the latest value. ``publish(_:)`` stores the value and resumes the
/// observers already waiting, and nothing else.
///
/// An observer that is waiting can also be lent, from any thread, to run work of its owner's on
/// the main actor (``lendWaitingObserver(atOrAbove:)``): it is about to wake up there anyway to
/// take the value that work produces, so the owner needs no wake-up of the main actor of its own.
@MainActor
package final class ConflatedBroadcaster<Value: Sendable> {
  // Unchecked: the main actor rules out overlapping access, and nothing here holds an access
  // across a call that could touch them again; the run-time check is a lookup on every publish.
  @exclusivity(unchecked) private var value: Value
  @exclusivity(unchecked) private var version = 0
  private var isFinished = false
  /// The observers waiting for a value. Under a lock, not only the main actor: a lender takes
  /// one from any thread, and so does the cancellation handler of an observer's Task.
  private nonisolated let waiting = Locked(WaitingObservers())
  /// Whether an observer may be waiting: set on the main actor whenever one starts to, so that
  /// ``publish(_:)`` takes the lock only then. Left set when an observer stops waiting off the
  /// main actor, which only costs the next publish a look at an empty list.
  private var mayHaveWaiters = false
  private var nextWaiterID = 0

  /// Creates a broadcaster whose current value, version 0, is `initial`.
  package nonisolated init(_ initial: Value) {
    value = initial
  }

  /// Makes `newValue` the current one and resumes the observers waiting for a new value;
  /// ignored once finished.
  package func publish(_ newValue: Value) {
    guard !isFinished else { return }
    value = newValue
    version += 1
    if mayHaveWaiters { resumeWaiters() }
  }

  /// The current value if its version is newer than `seen`, else the next one, with `seen` moved
  /// on to its version; `nil` once the broadcaster is finished and the observer has seen its
  /// final value, or when the calling Task is cancelled.
  ///
  /// While it waits, the observer may be lent (``lendWaitingObserver(atOrAbove:)``): it then runs
  /// `whenLent` on the main actor and goes on waiting, unless that produced a newer value.
  ///
  /// Neither the value nor its version travels through the observer's continuation: a tuple of
  /// the generic value would have its type's metadata looked up on every call. The observer reads
  /// both when it runs again, on the main actor, which also makes it take the latest value.
  package func next(after seen: inout Int, whenLent: @MainActor () -> Void) async -> Value? {
    while true {
      if version > seen {
        seen = version
        return value
      }
      if isFinished { return nil }
      switch await wakeUp(after: seen) {
      case .changed: continue
      case .lent: whenLent()
      case .cancelled: return nil
      }
    }
  }

  /// Wakes one observer that is waiting for a value, in a Task at `priority` or above, to run its
  /// `whenLent` work on the main actor; returns whether one was waiting. Callable from any thread.
  ///
  /// The priority bound keeps a low-priority observer from holding up work it was lent for.
  package nonisolated func lendWaitingObserver(atOrAbove priority: TaskPriority) -> Bool {
    guard let observer = waiting.withLock({ $0.takeFirst(atOrAbove: priority) }) else {
      return false
    }
    observer.continuation.resume(returning: .lent)
    return true
  }

  /// Ends every observer after the value it has not yet seen; later values are ignored.
  package func finish() {
    guard !isFinished else { return }
    isFinished = true
    // Anyone waiting has seen the current value already: a newer one would have woken it.
    resumeWaiters()
  }

  private func resumeWaiters() {
    mayHaveWaiters = false
    let observers = waiting.withLock { $0.takeAll() }
    for observer in observers { observer.continuation.resume(returning: .changed) }
  }

  /// Suspends the calling observer, which has seen version `seen`, until a newer value is
  /// published, the broadcaster finishes, the observer is lent, or its Task is cancelled; returns
  /// at once if a newer value or the end is already there.
  private func wakeUp(after seen: Int) async -> ObserverWakeUp {
    let priority = Task.currentPriority
    let id = nextWaiterID
    nextWaiterID += 1
    return await withTaskCancellationHandler {
      // Each continuation is resumed exactly once, by whoever takes it out of the list under its
      // lock first. Checked, all the same, because a lender resumes it from another thread: an
      // unsafe continuation's resume is compiled into this module, and ThreadSanitizer, which
      // cannot see the runtime's own hand-over, reports the resumed task's next write to that
      // memory as a race.
      await withCheckedContinuation { (continuation: CheckedContinuation<ObserverWakeUp, Never>) in
        // Looked at again where the observer registers, not only by the caller: a task that
        // prefers a task executor of its own can be suspended even by this call, from one of the
        // main actor's functions to another, and a value published meanwhile would wake nobody.
        guard version <= seen, !isFinished else { return continuation.resume(returning: .changed) }
        // Checked under the lock the cancellation handler takes: either the handler finds the
        // observer, or the cancellation is already visible here.
        let isWaiting = waiting.withLock { observers in
          guard !Task.isCancelled else { return false }
          observers.append(WaitingObserver(id: id, priority: priority, continuation: continuation))
          return true
        }
        if isWaiting {
          mayHaveWaiters = true
        } else {
          continuation.resume(returning: .cancelled)
        }
      }
    } onCancel: {
      waiting.withLock { $0.take(id: id) }?.continuation.resume(returning: .cancelled)
    }
  }
}

// Not nested in the generic broadcaster, where they would be generic too, their layouts looked up
// at run time on every use.

/// Why a waiting observer runs again.
private enum ObserverWakeUp {
  /// A value was published, or the broadcaster finished.
  case changed
  /// A lender woke it to run its `whenLent` work.
  case lent
  /// Its Task was cancelled.
  case cancelled
}

/// An observer waiting for a value.
private struct WaitingObserver {
  let id: Int
  let priority: TaskPriority
  let continuation: CheckedContinuation<ObserverWakeUp, Never>
}

/// The observers waiting for a value, in the order they began to.
private struct WaitingObservers {
  private var observers: [WaitingObserver] = []

  mutating func append(_ observer: WaitingObserver) {
    observers.append(observer)
  }

  mutating func takeAll() -> [WaitingObserver] {
    // Left alone when empty: emptied, it would give up its storage, which the next observer to
    // wait would allocate again.
    guard !observers.isEmpty else { return [] }
    defer { observers.removeAll() }
    return observers
  }

  mutating func takeFirst(atOrAbove priority: TaskPriority) -> WaitingObserver? {
    observers.firstIndex { $0.priority >= priority }.map { observers.remove(at: $0) }
  }

  mutating func take(id: Int) -> WaitingObserver? {
    observers.firstIndex { $0.id == id }.map { observers.remove(at: $0) }
  }
}
