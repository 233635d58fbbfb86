import DomainLayer
import LayeredSupport
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The todo screen: a search bar, its list and an editor sheet", .timeLimit(.minutes(1)))
@MainActor
struct TodoScreenFeatureTests {
  private let found = Array(Fixtures.todos.prefix(2))
  private let milk = try? Todo(id: 201, userID: 1, title: "Milk", isCompleted: false)

  private func store(
    search: [Result<[Todo], DomainError>?] = [], create: [Result<Todo, DomainError>?]
  ) -> (TestStore<TodoScreenFeature>, FakeSearchTodos, Script<Todo>) {
    let search = FakeSearchTodos(script: Script(search))
    let create = Script(create)
    let feature = TodoScreenFeature(searchTodos: search, createTodo: FakeCreateTodo(script: create))
    return (TestStore(feature, initialState: .init()), search, create)
  }

  /// Opens the sheet, types "Milk" and taps save.
  private func startSavingMilk(in store: TestStore<TodoScreenFeature>) {
    store.send(.addTapped) { $0.editor = .init() }
    store.send(.editor(.titleChanged("Milk"))) { $0.editor?.title = "Milk" }
    store.send(.editor(.saveTapped)) { $0.editor?.isSaving = true }
  }

  /// Types "todo" into the search bar and waits out the pause, until the search has gone out.
  private func startSearchingTodo(in store: TestStore<TodoScreenFeature>) async {
    store.send(.search(.queryChanged("todo"))) { $0.search.query = "todo" }
    await store.advance(by: SearchListFeature<Todo>.pause)
    await store.receive { $0.search.isSearching = true }
  }

  /// Types "todo" into the search bar and lets the search run, past the pause, to `results`
  /// (the todos `found` unless told).
  private func searchTodo(in store: TestStore<TodoScreenFeature>, finding results: [Todo]? = nil) async {
    await startSearchingTodo(in: store)
    await store.receive {
      $0.search.isSearching = false
      $0.search.results = results ?? found
    }
  }

  /// Receives the save of Milk: the sheet closes, the list shows Milk at its top, over the
  /// todos `found`, and the banner says so.
  private func receiveMilkSaved(in store: TestStore<TodoScreenFeature>, _ milk: Todo) async {
    await store.receive { $0.editor?.isSaving = false }
    await store.receive {
      $0.editor = nil
      $0.search.results = [milk] + found
      $0.banner = "Added “Milk”"
    }
  }

  /// Waits out the banner of a saved todo, which then hides.
  private func hideBanner(in store: TestStore<TodoScreenFeature>) async throws {
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: TodoScreenFeature.bannerDuration)
    await store.receive { $0.banner = nil }
  }

  @Test("a saved todo closes the sheet and joins the top of the list; its banner hides after two seconds")
  func savedTodoJoinsList() async throws {
    let milk = try #require(milk)
    let (store, _, _) = store(search: [.success(found)], create: [.success(milk)])
    await searchTodo(in: store)
    startSavingMilk(in: store)
    await receiveMilkSaved(in: store, milk)
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: TodoScreenFeature.bannerDuration - .milliseconds(1))
    #expect(store.state.banner == "Added “Milk”")
    await store.advance(by: .milliseconds(1))
    await store.receive { $0.banner = nil }
    await store.finish()
  }

  @Test("a saved todo that a search answered first shows once, at the top of the list")
  func savedTodoShowsOnce() async throws {
    let milk = try #require(milk)
    let (store, _, create) = store(search: [.success([milk] + found)], create: [nil])
    startSavingMilk(in: store)
    await create.waitForWaiting(1)
    // The server stored the todo, and a search found it before the save's own answer arrived.
    await searchTodo(in: store, finding: [milk] + found)
    create.release(.success(milk))
    await receiveMilkSaved(in: store, milk)
    try await hideBanner(in: store)
    await store.finish()
  }

  @Test("a saved todo stays at the top of the list when a search read before the save answers after it")
  func savedTodoOutlastsEarlierSearch() async throws {
    let milk = try #require(milk)
    let (store, search, _) = store(search: [nil], create: [.success(milk)])
    await startSearchingTodo(in: store)
    await search.script.waitForWaiting(1)
    startSavingMilk(in: store)
    await store.receive { $0.editor?.isSaving = false }
    await store.receive {
      $0.editor = nil
      $0.search.results = [milk]
      $0.banner = "Added “Milk”"
      $0.addedDuringSearch = [milk]
    }
    // The server read the search's todos before it stored Milk, and its answer comes now.
    search.script.release(.success(found))
    await store.receive {
      $0.search.isSearching = false
      $0.search.results = [milk] + found
      $0.addedDuringSearch = []
    }
    try await hideBanner(in: store)
    await store.finish()
  }

  @Test("a failed save keeps the title and the server's words, and the search bar still answers")
  func failedSaveKeepsInput() async throws {
    let refusal = DomainError.rejected(message: "Check the title.", fieldErrors: ["title": ["is taken"]])
    let (store, search, _) = store(search: [.success(found)], create: [.failure(refusal)])
    startSavingMilk(in: store)
    await store.receive {
      $0.editor?.isSaving = false
      $0.editor?.message = refusal.message
      $0.editor?.titleErrors = ["is taken"]
    }
    await searchTodo(in: store)
    await store.finish()
    #expect(search.queries.withLock { $0 } == ["todo"])
    #expect(store.state.editor?.title == "Milk")
  }

  @Test("closing the sheet cancels its save, whose late result never shows")
  func closingCancelsSave() async {
    let (store, _, create) = store(create: [nil])
    startSavingMilk(in: store)
    await create.waitForWaiting(1)
    store.send(.editorDismissed) { $0.editor = nil }
    await store.finish()
    #expect(create.cancellations == 1)
    #expect(store.state.search.results.isEmpty)
    #expect(store.state.banner == nil)
  }

  @Test("tapping add while the sheet is open keeps what was typed in it")
  func addKeepsOpenSheet() async {
    let (store, _, _) = store(create: [])
    store.send(.addTapped) { $0.editor = .init() }
    store.send(.editor(.titleChanged("Mi"))) { $0.editor?.title = "Mi" }
    store.send(.addTapped)
    await store.finish()
    #expect(store.state.editor?.title == "Mi")
  }
}
