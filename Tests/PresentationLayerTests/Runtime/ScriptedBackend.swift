import DomainLayer
import LayeredSupport
import LayeredTestSupport

/// Why a toy request failed.
enum ToyFailure: Error, Equatable {
  case offline
  case server(status: Int)
  case timeout
  case cancelled

  /// What a toy screen shows for it.
  var message: String {
    switch self {
    case .offline: "offline"
    case .server(let status): "server said \(status)"
    case .timeout: "timed out"
    case .cancelled: "cancelled"
    }
  }
}

/// One line of a ``ScriptedBackend``'s journal.
enum Note: Sendable, Equatable {
  /// A request reached the backend.
  case started(String)
  /// A request saw its Task cancelled while it waited.
  case cancelled(String)
  /// A toy operation returned, after applying (or trying to apply) its outcome.
  case returned(String)
  /// A toy operation read the state through its effects.
  case observed(String, query: String?)
  /// The test itself wrote this, to order its own steps among the others.
  case mark(String)
}

/// A backend whose answers the test gives, one request at a time, and that writes down all that
/// happens to it, so a test orders its steps by waiting for notes rather than by sleeping.
///
/// A request waits until the test calls ``answer(_:with:)`` (which may also come first); when
/// it honours cancellation, cancelling its Task ends the wait with ``ToyFailure/cancelled``.
final class ScriptedBackend: Sendable {
  typealias Answer = Result<[String], ToyFailure>

  private struct Waiting {
    let request: String
    let honoursCancellation: Bool
    let continuation: CheckedContinuation<Answer, Never>
  }

  private struct State {
    var answers: [String: [Answer]] = [:]
    var waiting: [Int: Waiting] = [:]
    var nextToken = 0
  }

  /// Everything written down so far, in order.
  let journal: StreamRecorder<Note>
  private let input: AsyncStream<Note>.Continuation
  private let state = Locked(State())

  init() {
    let (stream, input) = AsyncStream.makeStream(of: Note.self)
    journal = StreamRecorder(stream)
    self.input = input
  }

  /// Writes `note` down.
  func note(_ note: Note) {
    input.yield(note)
  }

  /// Returns once `note` has been written down `times` times; the journal so far.
  ///
  /// The journal is recorded by a task of its own, so a test reads it only after waiting for the
  /// last note it means to see.
  @discardableResult
  func waitFor(_ note: Note, times: Int = 1) async -> [Note] {
    await journal.waitUntil { $0.filter { $0 == note }.count >= times }
  }

  /// How many times `note` has been written down so far.
  func count(of note: Note) -> Int {
    journal.values.filter { $0 == note }.count
  }

  /// Answers the oldest waiting `request` with `answer`, or the next one to arrive.
  func answer(_ request: String, with answer: Answer = .success([])) {
    let waiting = state.withLock { state in
      let oldest = state.waiting.filter { $0.value.request == request }.keys.min()
      if let oldest, let waiting = state.waiting.removeValue(forKey: oldest) { return Optional(waiting) }
      state.answers[request, default: []].append(answer)
      return nil
    }
    // Resumed outside the lock, which the cancellation handler below takes: resuming a Task
    // under it could deadlock against that Task being cancelled.
    waiting?.continuation.resume(returning: answer)
  }

  /// Serves `request` once the test answers it.
  ///
  /// With `honouringCancellation` off it ignores cancellation and waits for the answer anyway,
  /// like a call that does not check for it.
  func respond(to request: String, honouringCancellation: Bool = true) async -> Answer {
    note(.started(request))
    let token = state.withLock { state in
      defer { state.nextToken += 1 }
      return state.nextToken
    }
    let answer = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now: Answer? = state.withLock { state in
          if let answer = state.answers[request]?.first {
            state.answers[request]?.removeFirst()
            return answer
          }
          if honouringCancellation, Task.isCancelled { return .failure(.cancelled) }
          state.waiting[token] = Waiting(
            request: request, honoursCancellation: honouringCancellation, continuation: continuation)
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    } onCancel: {
      let waiting = state.withLock { state -> Waiting? in
        guard let waiting = state.waiting[token], waiting.honoursCancellation else { return nil }
        return state.waiting.removeValue(forKey: token)
      }
      waiting?.continuation.resume(returning: .failure(.cancelled))
    }
    if answer == .failure(.cancelled) { note(.cancelled(request)) }
    return answer
  }
}
