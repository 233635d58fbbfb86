import DomainLayer
import SampleBackend

/// A load-todos use case whose outcomes a test decides, one `refresh` at a time.
///
/// Each call takes the next scripted outcome; a load whose outcome is `nil` waits until the test
/// calls ``release(_:)`` or the load is cancelled, which lets a test hold a request "in flight".
final class ScriptedLoadTodos: LoadTodosUseCase {
  private struct State {
    var script: [Outcome<[Todo]>?]
    var calls = 0
    var cancellations = 0
    var pending: [CheckedContinuation<Outcome<[Todo]>, Never>] = []
  }

  private let state: Locked<State>

  init(_ script: [Outcome<[Todo]>?]) {
    state = Locked(State(script: script))
  }

  var calls: Int { state.withLock { $0.calls } }
  var cancellations: Int { state.withLock { $0.cancellations } }

  /// Completes the oldest load that is waiting.
  func release(_ outcome: Outcome<[Todo]>) {
    let continuation = state.withLock { $0.pending.isEmpty ? nil : $0.pending.removeFirst() }
    continuation?.resume(returning: outcome)
  }

  func callAsFunction() -> OutcomeStream<[Todo]> {
    let scripted: Outcome<[Todo]>? = state.withLock { state in
      defer { state.calls += 1 }
      return state.calls < state.script.count
        ? state.script[state.calls] : .failure(.unexpected(reason: "script ran out"))
    }
    return .outcomes { [self] sink in
      if let scripted {
        sink.yield(scripted)
      } else {
        let outcome = await withTaskCancellationHandler {
          await withCheckedContinuation { continuation in
            state.withLock { $0.pending.append(continuation) }
          }
        } onCancel: {
          let waiting = state.withLock { state in
            state.cancellations += 1
            defer { state.pending.removeAll() }
            return state.pending
          }
          for continuation in waiting { continuation.resume(returning: .failure(.cancelled)) }
        }
        sink.yield(outcome)
      }
    }
  }
}

enum Fixtures {
  static let todos: [Todo] = (1...3).compactMap { id in
    try? Todo(id: id, userID: 1, title: "todo \(id)", isCompleted: id == 2)
  }
}
