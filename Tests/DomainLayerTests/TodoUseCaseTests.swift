import DomainLayer
import Testing

@Suite("Todo use cases")
struct TodoUseCaseTests {
  private let cached = [try? Todo(id: 1, userID: 1, title: "old", isCompleted: false)].compactMap { $0 }
  private let fresh = [try? Todo(id: 1, userID: 1, title: "new", isCompleted: true)].compactMap { $0 }

  @Test("observing todos yields the cached list first, then the fresh one")
  func cachedThenFresh() async {
    let repository = FakeTodoRepository(cached: cached, fresh: .success(fresh))
    let outcomes = await collect(ObserveTodos(repository: repository)())
    #expect(outcomes == [.success(Snapshot(cached, from: .cache)), .success(Snapshot(fresh, from: .server))])
  }

  @Test("without a cache, observing todos yields only the fresh list")
  func freshOnly() async {
    let repository = FakeTodoRepository(fresh: .success(fresh))
    #expect(
      await collect(ObserveTodos(repository: repository)()) == [.success(Snapshot(fresh, from: .server))])
  }

  @Test("a failed fetch after the cached list is an element, and the cached list was delivered")
  func cachedThenFailure() async {
    let repository = FakeTodoRepository(cached: cached, fresh: .failure(.offline))
    let outcomes = await collect(ObserveTodos(repository: repository)())
    #expect(outcomes == [.success(Snapshot(cached, from: .cache)), .failure(.offline)])
  }

  @Test("a blank title is refused without contacting the server", arguments: ["", "   ", "\n\t"])
  func blankTitle(title: String) async {
    let repository = FakeTodoRepository()
    let outcomes = await collect(CreateTodo(repository: repository)(title: title))
    #expect(outcomes == [.failure(.invalidInput(message: "A todo needs a title."))])
    #expect(repository.createdTitles.isEmpty)
  }

  @Test("a title is trimmed before it is sent")
  func trimmedTitle() async {
    let repository = FakeTodoRepository()
    _ = await collect(CreateTodo(repository: repository)(title: "  water plants \n"))
    #expect(repository.createdTitles == ["water plants"])
  }

  @Test("toggling asks for the opposite of the todo's current state")
  func toggle() async throws {
    let repository = FakeTodoRepository()
    let todo = try Todo(id: 7, userID: 1, title: "t", isCompleted: false)
    let outcomes = await collect(ToggleTodo(repository: repository)(todo))
    #expect(repository.completionChanges.map(\.isCompleted) == [true])
    #expect((try? outcomes.first?.get())?.isCompleted == true)
  }
}
