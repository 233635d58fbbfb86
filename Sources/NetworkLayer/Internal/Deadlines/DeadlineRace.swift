import LayeredSupport

/// Runs work against a deadline and answers as soon as either one ends.
///
/// The work runs in its own unstructured task (started on the caller's thread where the runtime
/// allows), so the answer never waits for cancelled work to
/// unwind: when the deadline fires (or the caller is cancelled) the race returns at once and the
/// work task is only told to stop. A task group would wait for all of its children on exit, and
/// a transport that is slow to notice cancellation would then hold the caller past its deadline.
///
/// Whichever side finishes first wins, under one lock; the loser is cancelled right away, and the
/// timer is released the moment the race ends, not when its deadline would have passed.
enum DeadlineRace {
  /// Returns the work's result, ``NetworkError/timeout`` once `deadline` has passed on `clock`,
  /// or ``NetworkError/cancelled`` as soon as the calling task is cancelled.
  static func run<Value: Sendable>(
    deadline: Duration,
    clock: any Clock<Duration>,
    _ work: @escaping @Sendable () async throws(NetworkError) -> Value
  ) async -> Result<Value, NetworkError> {
    let race = Race<Value>()
    let task = startWork(race, work)
    let timer = DeadlineTimer.start(after: DeadlineLength(deadline), on: clock) {
      race.finish(.failure(.timeout))
    }
    race.whenFinished {
      task.cancel()
      timer.cancel()
    }
    let outcome = await withTaskCancellationHandler {
      await race.outcome()
    } onCancel: {
      race.finish(.failure(.cancelled))
    }
    // The caller's cancellation wins over whatever the cancelled work reported.
    if Task.isCancelled, case .failure = outcome { return .failure(.cancelled) }
    return outcome
  }

  /// Starts `work` in a task of its own that reports to `race`. Where the runtime has
  /// `Task.immediate`, the task begins on the caller's thread and runs until its first suspension
  /// (the request in flight), instead of waiting for a worker thread to wake up: one context
  /// switch fewer a call.
  private static func startWork<Value: Sendable>(
    _ race: Race<Value>,
    _ work: @escaping @Sendable () async throws(NetworkError) -> Value
  ) -> Task<Void, Never> {
    let operation: @Sendable () async -> Void = {
      do throws(NetworkError) {
        race.finish(.success(try await work()))
      } catch {
        race.finish(.failure(error))
      }
    }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      return Task.immediate(operation: operation)
    }
    return Task(operation: operation)
  }
}

/// The shared state of one race: the first result, the one waiter, and what to stop once it ends.
private final class Race<Value: Sendable>: Sendable {
  private struct State {
    var result: Result<Value, NetworkError>?
    var waiter: CheckedContinuation<Result<Value, NetworkError>, Never>?
    var cleanup: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  /// Records `result` if nothing finished first, then wakes the waiter and stops the losers.
  func finish(_ result: Result<Value, NetworkError>) {
    let (waiter, cleanup) = state.withLock {
      state -> (CheckedContinuation<Result<Value, NetworkError>, Never>?, (@Sendable () -> Void)?) in
      guard state.result == nil else { return (nil, nil) }
      state.result = result
      defer {
        state.waiter = nil
        state.cleanup = nil
      }
      return (state.waiter, state.cleanup)
    }
    // The losers are stopped before the waiter wakes, so that once a call has returned its work
    // is already cancelled and cannot go on to send a request.
    cleanup?()
    waiter?.resume(returning: result)
  }

  /// Runs `cleanup` once the race has ended: at once if it already has.
  func whenFinished(_ cleanup: @escaping @Sendable () -> Void) {
    let finished = state.withLock { state in
      if state.result != nil { return true }
      state.cleanup = cleanup
      return false
    }
    if finished { cleanup() }
  }

  /// Waits for the first result.
  func outcome() async -> Result<Value, NetworkError> {
    await withCheckedContinuation { continuation in
      let result = state.withLock { state in
        if state.result == nil { state.waiter = continuation }
        return state.result
      }
      if let result { continuation.resume(returning: result) }
    }
  }
}
