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
@MainActor
package final class ConflatedBroadcaster<Value: Sendable> {
  /// A value with its version, handed to an observer.
  package typealias Versioned = (value: Value, version: Int)

  // Unchecked: the main actor rules out overlapping access, and nothing here holds an access
  // across a call that could touch them again; the run-time check is a lookup on every publish.
  @exclusivity(unchecked) private var value: Value
  @exclusivity(unchecked) private var version = 0
  private var isFinished = false
  /// Unsafe, not checked, continuations: each is resumed exactly once, by whoever takes it out of
  /// this list on the main actor first (a new value, the end, or its observer's cancellation).
  private var waiters: [(id: Int, continuation: UnsafeContinuation<Versioned?, Never>)] = []
  /// `!waiters.isEmpty`, kept apart so that `publish` touches no generic collection (that looks
  /// type metadata up at run time).
  private var hasWaiters = false
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
    if hasWaiters { resumeWaiters(with: newValue, version: version) }
  }

  /// The current value if its version is newer than `seen`, else the next one; `nil` once the
  /// broadcaster is finished and the observer has seen its final value, or when the calling Task
  /// is cancelled.
  package func next(after seen: Int) async -> Versioned? {
    if version > seen { return (value, version) }
    if isFinished { return nil }
    let id = nextWaiterID
    nextWaiterID += 1
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Versioned?, Never>) in
        if Task.isCancelled {
          continuation.resume(returning: nil)
        } else {
          waiters.append((id, continuation))
          hasWaiters = true
        }
      }
    } onCancel: {
      // Runs on the cancelling thread; the waiter is the main actor's to touch.
      Task { @MainActor in self.cancelWaiter(id) }
    }
  }

  /// Ends every observer after the value it has not yet seen; later values are ignored.
  package func finish() {
    guard !isFinished else { return }
    isFinished = true
    // Anyone waiting has seen the current value already: a newer one would have woken it.
    resumeWaiters(with: nil)
  }

  /// Kept out of ``publish(_:)``, whose every call would otherwise look the metadata of the
  /// `Versioned` tuple up at run time, even with nobody waiting.
  @inline(never)
  private func resumeWaiters(with newValue: Value, version: Int) {
    resumeWaiters(with: (newValue, version))
  }

  private func resumeWaiters(with versioned: Versioned?) {
    let waiting = waiters
    waiters = []
    hasWaiters = false
    for waiter in waiting { waiter.continuation.resume(returning: versioned) }
  }

  private func cancelWaiter(_ id: Int) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(returning: nil)
    hasWaiters = !waiters.isEmpty
  }
}
