import LayeredSupport

/// The requests waiting for one token refresh, each free to stop waiting on its own.
///
/// Awaiting the shared refresh task's value would ignore the waiter's cancellation: a request
/// whose caller gave up, or whose deadline passed, would sit until the refresh ended. Here every
/// waiter holds its own continuation, resumed by whichever comes first: the refresh's outcome
/// (for everyone at once) or the waiter's own cancellation (for that waiter alone, which also
/// covers its call's deadline, as the client cancels a call's work when the deadline fires).
final class RefreshWaiters: Sendable {
  private enum Waiter {
    // Registered; its continuation does not exist yet.
    case starting
    // Cancelled before its continuation existed; it resumes at once when it does.
    case cancelled
    case waiting(CheckedContinuation<Result<AuthTokens, NetworkError>, Never>)
    // Resumed, or never to be: nothing is left to do for it.
    case done
  }

  private struct State {
    var outcome: Result<AuthTokens, NetworkError>?
    /// Indexed by waiter: one refresh has one set of waiters, numbered from 0 as they come, so
    /// an array does what a dictionary would without hashing a thousand keys in a storm.
    var waiters: [Waiter] = []
  }

  private let state = Locked(State())

  /// The refresh's outcome, or ``NetworkError/cancelled`` as soon as the calling task is
  /// cancelled, whichever comes first.
  func wait() async -> Result<AuthTokens, NetworkError> {
    let registration: (id: Int, outcome: Result<AuthTokens, NetworkError>?) = state.withLock { state in
      if let outcome = state.outcome { return (0, outcome) }
      state.waiters.append(.starting)
      return (state.waiters.count - 1, nil)
    }
    if let outcome = registration.outcome { return outcome }
    let id = registration.id
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let ready: Result<AuthTokens, NetworkError>? = state.withLock { state in
          // Once there is an outcome the waiters are gone, `id` with them.
          if let outcome = state.outcome { return outcome }
          guard case .starting = state.waiters[id] else {
            state.waiters[id] = .done
            return .failure(.cancelled)
          }
          state.waiters[id] = .waiting(continuation)
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      // Exactly one side takes a continuation out under the lock, and only that side resumes it.
      let continuation: CheckedContinuation<Result<AuthTokens, NetworkError>, Never>? = state.withLock {
        state in
        guard state.outcome == nil else { return nil }
        switch state.waiters[id] {
        case .starting:
          state.waiters[id] = .cancelled
          return nil
        case .waiting(let continuation):
          state.waiters[id] = .done
          return continuation
        case .cancelled, .done:
          return nil
        }
      }
      continuation?.resume(returning: .failure(.cancelled))
    }
  }

  /// Gives `outcome` to every waiter, in the order they began to wait, and to everyone who starts
  /// waiting later. Only the first call counts.
  func finish(_ outcome: Result<AuthTokens, NetworkError>) {
    let waiting: [CheckedContinuation<Result<AuthTokens, NetworkError>, Never>] = state.withLock { state in
      guard state.outcome == nil else { return [] }
      state.outcome = outcome
      let waiting = state.waiters.compactMap { waiter in
        if case .waiting(let continuation) = waiter { continuation } else { nil }
      }
      state.waiters = []
      return waiting
    }
    for continuation in waiting { continuation.resume(returning: outcome) }
  }
}
