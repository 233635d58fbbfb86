import LayeredSupport
import SampleBackend

/// A clock whose time moves only when a test says so.
///
/// Code under test sleeps on it as on any `Clock`; the test waits with ``waitForSleepers(count:)``
/// until that code is really asleep, then moves time with ``advance(by:)`` or ``advance(to:)``.
/// Guarantees:
/// - a sleep returns only once time has reached its deadline, and at once when it already has;
/// - an advance wakes every sleeper whose deadline it reaches, resuming them in deadline order
///   (ties in the order they went to sleep); sleepers it does not reach stay asleep;
/// - cancelling a sleeping task makes its sleep throw `CancellationError` at once, without any
///   advance; a task already cancelled throws without sleeping, as `Task.sleep` does;
/// - time never moves backwards: advancing to an earlier instant changes nothing.
public final class TestClock: Clock, Sendable {
  /// A point on a ``TestClock``: how far its time has moved since the start.
  public struct Instant: InstantProtocol {
    /// The time since the clock's start.
    public let offset: Duration

    /// Creates the instant `offset` after the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later (earlier, if negative).
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`; negative when `other` is earlier.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Orders instants by their offset.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private enum Sleep {
    // Registered, but its continuation does not exist yet.
    case starting
    // Cancelled before its continuation existed; the continuation resumes at once when it does.
    case cancelled
    case sleeping(deadline: Instant, continuation: CheckedContinuation<Void, any Error>)
  }

  private enum Wait {
    case starting
    case cancelled
    case waiting(count: Int, continuation: CheckedContinuation<Void, any Error>)
  }

  private struct State {
    var now: Instant
    var nextID: UInt64 = 0
    var sleeps: [UInt64: Sleep] = [:]
    var waits: [UInt64: Wait] = [:]

    mutating func makeID() -> UInt64 {
      nextID += 1
      return nextID
    }

    var sleeperCount: Int {
      sleeps.values.count { if case .sleeping = $0 { true } else { false } }
    }

    // Takes out every wait the current number of sleepers satisfies, for resuming outside the lock.
    mutating func takeSatisfiedWaits() -> [CheckedContinuation<Void, any Error>] {
      let sleepers = sleeperCount
      var ready: [CheckedContinuation<Void, any Error>] = []
      for (id, wait) in waits {
        if case .waiting(let count, let continuation) = wait, sleepers >= count {
          waits[id] = nil
          ready.append(continuation)
        }
      }
      return ready
    }
  }

  private let state: Locked<State>

  /// Creates a clock that reads `now`; by default its start.
  public init(now: Instant = Instant()) {
    state = Locked(State(now: now))
  }

  /// The clock's current time; it changes only through ``advance(by:)`` and ``advance(to:)``.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// Zero: the clock can be advanced by any amount.
  public var minimumResolution: Duration {
    .zero
  }

  /// The number of tasks asleep on the clock right now.
  public var sleeperCount: Int {
    state.withLock { $0.sleeperCount }
  }

  /// Suspends until time reaches `deadline`; returns at once if it already has. `tolerance` is
  /// ignored: the clock wakes a sleeper exactly when an advance reaches its deadline.
  ///
  /// - Throws: `CancellationError` when the task is cancelled before or during the sleep.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    if deadline <= now {
      return
    }
    let id = state.withLock { state in
      let id = state.makeID()
      state.sleeps[id] = .starting
      return id
    }
    // Removes whatever is left of this sleep (a `.cancelled` mark) once it is over; the
    // cancellation handler cannot run after `withTaskCancellationHandler` returns.
    defer { state.withLock { $0.sleeps[id] = nil } }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = state.withLock { state in
          guard case .starting = state.sleeps[id] else { return .failure(CancellationError()) }
          // Time may have moved between the first check and now.
          if deadline <= state.now {
            return .success(())
          }
          state.sleeps[id] = .sleeping(deadline: deadline, continuation: continuation)
          return nil
        }
        if let outcome {
          continuation.resume(with: outcome)
        } else {
          resumeSatisfiedWaits()
        }
      }
    } onCancel: {
      // Exactly one side removes a continuation from the state, under the lock, and only that
      // side resumes it: an advance and a cancellation cannot both resume the same sleep.
      let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
        switch state.sleeps[id] {
        case .starting:
          state.sleeps[id] = .cancelled
          return nil
        case .sleeping(_, let continuation):
          state.sleeps[id] = .cancelled
          return continuation
        case .cancelled, nil:
          return nil
        }
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration` and wakes every sleeper whose deadline it reaches, in
  /// deadline order. A negative `duration` changes nothing.
  public func advance(by duration: Duration) {
    let target = state.withLock { $0.now.advanced(by: duration) }
    advance(to: target)
  }

  /// Moves time forward to `instant` and wakes every sleeper whose deadline it reaches, in
  /// deadline order. An instant earlier than ``now`` changes nothing.
  public func advance(to instant: Instant) {
    let due = state.withLock { state in
      state.now = max(state.now, instant)
      var due: [(id: UInt64, deadline: Instant, continuation: CheckedContinuation<Void, any Error>)] = []
      for (id, sleep) in state.sleeps {
        if case .sleeping(let deadline, let continuation) = sleep, deadline <= state.now {
          due.append((id, deadline, continuation))
        }
      }
      for sleeper in due {
        state.sleeps[sleeper.id] = nil
      }
      // IDs grow with each sleep, so they break ties in the order the sleeps began.
      return due.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }.map(\.continuation)
    }
    for continuation in due {
      continuation.resume()
    }
  }

  /// Returns once at least `count` tasks are asleep on the clock: after it returns, an advance
  /// past their deadlines is sure to wake them.
  ///
  /// - Throws: `CancellationError` when the waiting task is cancelled first.
  public func waitForSleepers(count: Int) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      let id = state.makeID()
      state.waits[id] = .starting
      return id
    }
    defer { state.withLock { $0.waits[id] = nil } }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = state.withLock { state in
          guard case .starting = state.waits[id] else { return .failure(CancellationError()) }
          if state.sleeperCount >= count {
            return .success(())
          }
          state.waits[id] = .waiting(count: count, continuation: continuation)
          return nil
        }
        if let outcome {
          continuation.resume(with: outcome)
        }
      }
    } onCancel: {
      let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
        switch state.waits[id] {
        case .starting:
          state.waits[id] = .cancelled
          return nil
        case .waiting(_, let continuation):
          state.waits[id] = .cancelled
          return continuation
        case .cancelled, nil:
          return nil
        }
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  private func resumeSatisfiedWaits() {
    for continuation in state.withLock({ $0.takeSatisfiedWaits() }) {
      continuation.resume()
    }
  }
}
