import DomainLayer
import LayeredSupport

/// Hands out one scripted outcome per call; a `nil` entry waits until ``release(_:)`` or until
/// the call is cancelled, which lets a test hold work "in flight".
final class Script<Value: Sendable>: Sendable {
  private struct State {
    var outcomes: [Result<Value, DomainError>?]
    var calls = 0
    var cancellations = 0
    var waiting: [CheckedContinuation<Result<Value, DomainError>, Never>] = []
  }

  private let state: Locked<State>

  init(_ outcomes: [Result<Value, DomainError>?]) {
    state = Locked(State(outcomes: outcomes))
  }

  var calls: Int { state.withLock { $0.calls } }
  var cancellations: Int { state.withLock { $0.cancellations } }
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Completes the oldest waiting call.
  func release(_ outcome: Result<Value, DomainError>) {
    let continuation = state.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
    continuation?.resume(returning: outcome)
  }

  /// The next outcome, waiting for it when the script says so.
  func next() async -> Result<Value, DomainError> {
    let scripted: Result<Value, DomainError>?? = state.withLock { state in
      defer { state.calls += 1 }
      guard state.calls < state.outcomes.count else {
        return .some(Result<Value, DomainError>.failure(DomainError.unexpected(reason: "script ran out")))
      }
      return .some(state.outcomes[state.calls])
    }
    if let scripted = scripted ?? nil { return scripted }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        state.withLock { $0.waiting.append(continuation) }
      }
    } onCancel: {
      let waiting = state.withLock { state in
        state.cancellations += 1
        defer { state.waiting.removeAll() }
        return state.waiting
      }
      for continuation in waiting { continuation.resume(returning: .failure(.cancelled)) }
    }
  }

  /// Waits until `count` calls are waiting.
  func waitForWaiting(_ count: Int) async {
    while waitingCount < count { await Task.yield() }
  }
}

struct FakeLogIn: LogInUseCase {
  let script: Script<User>
  func callAsFunction(username: String, password: String) -> OutcomeStream<User, DomainError> {
    .outcomes { sink in sink.yield(await script.next()) }
  }
}

struct FakeObserveTodos: ObserveTodosUseCase {
  let cached: [Todo]?
  let script: Script<[Todo]>
  func callAsFunction() -> OutcomeStream<Snapshot<[Todo]>, DomainError> {
    .outcomes { sink in
      if let cached { sink.yield(Snapshot(cached, from: .cache)) }
      sink.yield(await script.next().map { Snapshot($0, from: .server) })
    }
  }
}

struct FakeToggleTodo: ToggleTodoUseCase {
  let script: Script<Todo>
  func callAsFunction(_ todo: Todo) -> OutcomeStream<Todo, DomainError> {
    .outcomes { sink in sink.yield(await script.next()) }
  }
}

struct FakeCreateTodo: CreateTodoUseCase {
  let script: Script<Todo>
  func callAsFunction(title: String) -> OutcomeStream<Todo, DomainError> {
    .outcomes { sink in sink.yield(await script.next()) }
  }
}

struct FakeObserveSession: ObserveSessionUseCase {
  let broadcaster = StateBroadcaster(Session.signedIn)
  /// How many times an observer handed `.expired` has asked for the next session, which it does
  /// only once it has reacted.
  private let askedAfterExpiry = Locked(0)

  func callAsFunction() -> AsyncStream<Session> {
    let source = SessionSource(broadcaster.values(), askedAfterExpiry: askedAfterExpiry)
    return AsyncStream { await source.next() }
  }

  /// Returns once an observer has finished reacting to an expired session.
  func waitUntilExpiryHandled() async {
    while askedAfterExpiry.withLock({ $0 }) == 0 { try? await Task.sleep(for: .milliseconds(1)) }
  }
}

/// Hands out one observer's sessions in turn, and counts its asking again after `.expired`.
private actor SessionSource {
  private var sessions: AsyncStream<Session>.Iterator
  private var last: Session?
  private let askedAfterExpiry: Locked<Int>

  init(_ stream: AsyncStream<Session>, askedAfterExpiry: Locked<Int>) {
    sessions = stream.makeAsyncIterator()
    self.askedAfterExpiry = askedAfterExpiry
  }

  func next() async -> Session? {
    if last == .expired { askedAfterExpiry.withLock { $0 += 1 } }
    var iterator = sessions
    last = await iterator.next(isolation: self)
    sessions = iterator
    return last
  }
}

struct FakeLoadArticle: LoadTodaysArticleUseCase {
  let script: Script<Article>
  func callAsFunction() -> OutcomeStream<Article, DomainError> {
    .outcomes { sink in sink.yield(await script.next()) }
  }
}

enum Fixtures {
  static let todos: [Todo] = (1...3).compactMap { id in
    try? Todo(id: id, userID: 1, title: "todo \(id)", isCompleted: id == 2)
  }
  static let user = User(username: "demo")
  static let article = try? Article(
    id: 1, title: "Real", body: "Text", publishedAt: .init(timeIntervalSince1970: 0))
}

/// A search whose every call takes the next outcome of `script` and writes its query down.
struct FakeSearchTodos: SearchTodosUseCase {
  let script: Script<[Todo]>
  let queries = Locked<[String]>([])
  func callAsFunction(_ query: String) -> OutcomeStream<[Todo], DomainError> {
    .outcome { [script, queries] () async throws(DomainError) in
      queries.withLock { $0.append(query) }
      return try await script.next().get()
    }
  }
}
