/// Holds a current value and hands the latest one to any number of observers, each at its own
/// pace, the way Kotlin's `StateFlow` does.
///
/// Each value gets a version number. An observer remembers the version it saw last and asks for
/// anything newer: it gets the current value at once if there is one, or waits for the next.
/// An observer that falls behind therefore skips straight to the latest value, never a stale one,
/// and once the broadcaster is finished every observer still gets the final value before its end.
///
/// Why this is fast: ``publish(_:)`` only stores the value under a lock and resumes the observers
/// that are already waiting, so a burst of values costs one wake-up per observer, not one per
/// value per observer as an `AsyncStream` per observer would.
///
/// Waiting observers are resumed after the lock is released: resuming a Task takes a runtime lock
/// that the Task's cancellation holds while its handler runs, and that handler takes this lock.
package final class LatestValueBroadcaster<Value: Sendable>: Sendable {
  /// A value with its version, handed to an observer.
  package typealias Versioned = (value: Value, version: Int)

  private struct Storage {
    var value: Value
    var version = 0
    var isFinished = false
    var waiters: [Int: CheckedContinuation<Versioned?, Never>] = [:]
    var nextWaiterID = 0
  }

  private enum Check {
    case ready(Versioned?)
    case wait(id: Int)
  }

  private let storage: Locked<Storage>

  /// Creates a broadcaster whose current value, version 0, is `initial`.
  package init(_ initial: sending Value) {
    storage = Locked(Storage(value: initial))
  }

  /// The current value.
  package var value: Value {
    storage.withLock { $0.value }
  }

  /// Makes `value` the current one and wakes the observers waiting for it; ignored once finished.
  package func publish(_ value: Value) {
    let woken: (waiters: [CheckedContinuation<Versioned?, Never>], version: Int)? = storage.withLock {
      storage in
      guard !storage.isFinished else { return nil }
      storage.value = value
      storage.version += 1
      guard !storage.waiters.isEmpty else { return nil }
      defer { storage.waiters.removeAll(keepingCapacity: true) }
      return (Array(storage.waiters.values), storage.version)
    }
    guard let woken else { return }
    for waiter in woken.waiters { waiter.resume(returning: (value, woken.version)) }
  }

  /// The current value if its version is newer than `seen`, else the next one; `nil` once the
  /// broadcaster is finished and the observer has seen its final value, or when the calling Task
  /// is cancelled.
  package func next(
    after seen: Int,
    isolation: isolated (any Actor)? = #isolation
  ) async -> Versioned? {
    let check: Check = storage.withLock { storage in
      if storage.version > seen { return .ready((storage.value, storage.version)) }
      if storage.isFinished { return .ready(nil) }
      defer { storage.nextWaiterID += 1 }
      return .wait(id: storage.nextWaiterID)
    }
    guard case .wait(let id) = check else {
      if case .ready(let versioned) = check { return versioned }
      return nil
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Versioned?, Never>) in
        let ready: Versioned?? = storage.withLock { storage in
          if storage.version > seen { return .some((storage.value, storage.version)) }
          if storage.isFinished || Task.isCancelled { return .some(nil) }
          storage.waiters[id] = continuation
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      storage.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
    }
  }

  /// Ends every observer after the value it has not yet seen; later values are ignored.
  package func finish() {
    let waiting: [CheckedContinuation<Versioned?, Never>] = storage.withLock { storage in
      storage.isFinished = true
      defer { storage.waiters.removeAll() }
      return Array(storage.waiters.values)
    }
    // Anyone waiting has seen the current value already: a newer one would have woken it.
    for waiter in waiting { waiter.resume(returning: nil) }
  }
}
