import DomainLayer
import LayeredSupport

/// A todo repository whose answers a test sets, and which records what it was asked.
final class FakeTodoRepository: TodoRepository {
  private struct Log {
    var created: [String] = []
    var completionChanges: [(id: Int, isCompleted: Bool)] = []
  }

  private let cached: [Todo]?
  private let fresh: Result<[Todo], DomainError>
  private let log = Locked(Log())

  init(cached: [Todo]? = nil, fresh: Result<[Todo], DomainError> = .success([])) {
    self.cached = cached
    self.fresh = fresh
  }

  var createdTitles: [String] { log.withLock { $0.created } }
  var completionChanges: [(id: Int, isCompleted: Bool)] { log.withLock { $0.completionChanges } }

  func todos() async throws(DomainError) -> [Todo] { try fresh.get() }

  func cachedTodos() -> [Todo]? { cached }

  func createTodo(title: String) async throws(DomainError) -> Todo {
    log.withLock { $0.created.append(title) }
    return try Todo(id: 201, userID: 1, title: title, isCompleted: false)
  }

  func setCompleted(_ isCompleted: Bool, forTodoWithID id: Int) async throws(DomainError) -> Todo {
    log.withLock { $0.completionChanges.append((id, isCompleted)) }
    return try Todo(id: id, userID: 1, title: "t", isCompleted: isCompleted)
  }
}

func collect<Stream: AsyncSequence<Stream.Element, Never>>(_ stream: Stream) async -> [Stream.Element] {
  var values: [Stream.Element] = []
  for await value in stream { values.append(value) }
  return values
}
