import LayeredSupport

/// A wait that the call it belongs to can end from outside: the request in flight, an
/// interceptor's work, a retry's pause.
protocol InterruptibleWait: AnyObject, Sendable {
  /// Ends the wait at once with `reason`; what it was waiting for is stopped in the background.
  func interrupt(_ reason: NetworkError)
}

/// The boundary of one call: its deadline and its caller's cancellation end it, and ending it
/// ends whatever it is waiting for at that moment.
///
/// The call runs in its caller's own task, so its answer needs no second task and no second
/// thread wake-up. What a task group or a racing task would give, answering at the deadline
/// without waiting for the work to unwind, comes from here instead: every wait of the call is
/// registered while it lasts, and ``end(_:)`` ends that wait at once. Work between waits
/// (building the request, decoding the body) is not interrupted; it ends at the next wait, or at
/// ``close()``.
final class CallScope: Sendable {
  private struct State {
    /// Why the call ended early, once it has.
    var ended: NetworkError?
    /// Whether the call returned its own outcome, after which nothing ends it.
    var closed = false
    var current: (any InterruptibleWait)?
  }

  private let state = Locked(State())

  /// Ends the call with `reason`, unless it has ended or returned already, and interrupts what
  /// it is waiting for. The first reason wins.
  func end(_ reason: NetworkError) {
    let interrupted = state.withLock { state -> (any InterruptibleWait)? in
      guard state.ended == nil, !state.closed else { return nil }
      state.ended = reason
      defer { state.current = nil }
      return state.current
    }
    interrupted?.interrupt(reason)
  }

  /// Why the call ended, or `nil` while it runs.
  var endReason: NetworkError? {
    state.withLock { $0.ended }
  }

  /// Makes `wait` the call's current wait. Returns why the call has already ended instead, in
  /// which case the wait must not begin.
  func enter(_ wait: any InterruptibleWait) -> NetworkError? {
    state.withLock { state in
      if let ended = state.ended { return ended }
      state.current = wait
      return nil
    }
  }

  /// Forgets `wait` once it is over.
  func leave(_ wait: any InterruptibleWait) {
    state.withLock { state in
      if state.current === wait { state.current = nil }
    }
  }

  /// Seals the call with its own outcome. Returns why it ended first instead, when its deadline
  /// or its caller's cancellation came before.
  func close() -> NetworkError? {
    state.withLock { state in
      if let ended = state.ended { return ended }
      state.closed = true
      return nil
    }
  }

  /// Runs `operation` (code that is not the client's, such as an interceptor, or a clock's
  /// sleep) so that ending the call ends the wait for it at once, whether or not the operation
  /// notices its cancellation.
  ///
  /// The operation runs in a task of its own, started on the caller's thread where the runtime
  /// allows: one that finishes without suspending costs no thread hop. Ending the call cancels
  /// that task and stops waiting for it.
  func run<Value: Sendable>(
    _ operation: @escaping @Sendable () async throws(NetworkError) -> Value
  ) async throws(NetworkError) -> Value {
    let wait = AbandonableWait<Value>()
    if let reason = enter(wait) { throw reason }
    defer { leave(wait) }
    wait.start(operation)
    return try await wait.value().get()
  }
}

/// An operation in a task of its own, which the waiter may stop waiting for.
private final class AbandonableWait<Value: Sendable>: InterruptibleWait {
  private struct State {
    var result: Result<Value, NetworkError>?
    var waiter: CheckedContinuation<Result<Value, NetworkError>, Never>?
    var task: Task<Void, Never>?
  }

  private let state = Locked(State())

  func start(_ operation: @escaping @Sendable () async throws(NetworkError) -> Value) {
    // Interrupted between entering the scope and starting: the operation never begins.
    if state.withLock({ $0.result != nil }) { return }
    let body: @Sendable () async -> Void = { [self] in
      do throws(NetworkError) {
        complete(.success(try await operation()))
      } catch {
        complete(.failure(error))
      }
    }
    let task: Task<Void, Never>
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
      task = Task.immediate(operation: body)
    } else {
      task = Task(operation: body)
    }
    let ended = state.withLock { state in
      if state.result != nil { return true }
      state.task = task
      return false
    }
    // Interrupted while the task was being created (or already finished: cancelling is harmless).
    if ended { task.cancel() }
  }

  /// The operation's result, or the reason the wait was interrupted. Returns without suspending
  /// when the operation has already finished.
  func value() async -> Result<Value, NetworkError> {
    if let result = state.withLock({ $0.result }) { return result }
    return await withCheckedContinuation { continuation in
      let result = state.withLock { state in
        if state.result == nil { state.waiter = continuation }
        return state.result
      }
      if let result { continuation.resume(returning: result) }
    }
  }

  func interrupt(_ reason: NetworkError) {
    let task = state.withLock { $0.task }
    complete(.failure(reason))
    task?.cancel()
  }

  private func complete(_ result: Result<Value, NetworkError>) {
    let waiter = state.withLock { state -> CheckedContinuation<Result<Value, NetworkError>, Never>? in
      guard state.result == nil else { return nil }
      state.result = result
      defer {
        state.waiter = nil
        state.task = nil
      }
      return state.waiter
    }
    waiter?.resume(returning: result)
  }
}
