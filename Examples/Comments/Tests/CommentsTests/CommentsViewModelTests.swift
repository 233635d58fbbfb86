import Comments
import DomainLayer
import LayeredTestSupport
import Testing

private struct FakeLoadComments: LoadCommentsUseCase {
  var outcome: Result<[TodoComment], DomainError>
  func callAsFunction(todoID: Int) -> OutcomeStream<[TodoComment], DomainError> {
    .outcome { [outcome] () async throws(DomainError) in try outcome.get() }
  }
}

private struct FakeAddComment: AddCommentUseCase {
  var outcome: Result<TodoComment, DomainError>
  func callAsFunction(_ body: String, todoID: Int) -> OutcomeStream<TodoComment, DomainError> {
    .outcome { [outcome] () async throws(DomainError) in try outcome.get() }
  }
}

/// Hands each caller the value the test releases, once it does.
private final class Gate<Value: Sendable>: Sendable {
  private let values: AsyncStream<Value>
  private let continuation: AsyncStream<Value>.Continuation

  init() {
    (values, continuation) = AsyncStream.makeStream()
  }

  func next() async throws(DomainError) -> Value {
    for await value in values { return value }
    throw .cancelled
  }

  func release(_ value: Value) {
    continuation.yield(value)
  }
}

private struct GatedAddComment: AddCommentUseCase {
  let gate: Gate<Result<TodoComment, DomainError>>
  func callAsFunction(_ body: String, todoID: Int) -> OutcomeStream<TodoComment, DomainError> {
    .outcome { [gate] () async throws(DomainError) in try await gate.next().get() }
  }
}

private struct GatedLoadComments: LoadCommentsUseCase {
  let gate: Gate<Result<[TodoComment], DomainError>>
  func callAsFunction(todoID: Int) -> OutcomeStream<[TodoComment], DomainError> {
    .outcome { [gate] () async throws(DomainError) in try await gate.next().get() }
  }
}

@Suite("CommentsViewModel", .timeLimit(.minutes(1)))
@MainActor
struct CommentsViewModelTests {
  @Test("appearing shows the todo's comments; adding appends one and clears the draft")
  func loadAndAdd() async throws {
    let first = try TodoComment(id: 1, todoID: 7, body: "First")
    let added = try TodoComment(id: 2, todoID: 7, body: "Second")
    let store = TestStore(
      CommentsFeature(
        loadComments: FakeLoadComments(outcome: .success([first])),
        addComment: FakeAddComment(outcome: .success(added))),
      initialState: .init(todoID: 7))
    store.send(.appeared)
    await store.receive { $0.comments = [first] }
    store.send(.draftChanged("Second")) { $0.draft = "Second" }
    store.send(.addTapped) { $0.isAdding = true }
    await store.receive {
      $0.isAdding = false
      $0.draft = ""
      $0.comments = [first, added]
    }
    await store.finish()
  }

  /// A store whose screen appeared, with "Second" typed and add tapped; the load and then the
  /// add answer what the test releases to each.
  private func addingWhileLoading() -> (
    store: TestStore<CommentsFeature>, loads: Gate<Result<[TodoComment], DomainError>>,
    adds: Gate<Result<TodoComment, DomainError>>
  ) {
    let (loads, adds) = (Gate<Result<[TodoComment], DomainError>>(), Gate<Result<TodoComment, DomainError>>())
    let store = TestStore(
      CommentsFeature(loadComments: GatedLoadComments(gate: loads), addComment: GatedAddComment(gate: adds)),
      initialState: .init(todoID: 7))
    store.send(.appeared)
    store.send(.draftChanged("Second")) { $0.draft = "Second" }
    store.send(.addTapped) { $0.isAdding = true }
    return (store, loads, adds)
  }

  @Test("an add waits for the load under way, whose list cannot hide it; what is typed meanwhile stays")
  func addWaitsForLoad() async throws {
    let first = try TodoComment(id: 1, todoID: 7, body: "First")
    let added = try TodoComment(id: 2, todoID: 7, body: "Second")
    let (store, loads, adds) = addingWhileLoading()
    store.send(.draftChanged("Third")) { $0.draft = "Third" }
    adds.release(.success(added))
    loads.release(.success([first]))
    await store.receive { $0.comments = [first] }
    await store.receive {
      $0.isAdding = false
      $0.comments = [first, added]
    }
    await store.finish()
  }

  @Test("a load that fails while an add waits its turn leaves the add under way: a second tap adds nothing")
  func failedLoadKeepsAddUnderWay() async throws {
    let added = try TodoComment(id: 2, todoID: 7, body: "Second")
    let (store, loads, adds) = addingWhileLoading()
    loads.release(.failure(.offline))
    await store.receive { $0.message = DomainError.offline.message }
    store.send(.addTapped)
    adds.release(.success(added))
    await store.receive {
      $0.isAdding = false
      $0.draft = ""
      $0.comments = [added]
    }
    await store.finish()
  }

  @Test("a failed add keeps the draft and says why")
  func failedAdd() async {
    let store = TestStore(
      CommentsFeature(
        loadComments: FakeLoadComments(outcome: .success([])),
        addComment: FakeAddComment(outcome: .failure(.offline))),
      initialState: .init(todoID: 7))
    store.send(.draftChanged("Kept")) { $0.draft = "Kept" }
    store.send(.addTapped) { $0.isAdding = true }
    await store.receive {
      $0.isAdding = false
      $0.message = DomainError.offline.message
    }
    await store.finish()
  }
}
