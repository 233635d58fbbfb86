import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("TodoListViewModel", .timeLimit(.minutes(1)))
struct TodoListViewModelTests {
  private struct Fakes {
    var cached: [Todo]? = nil
    var loads = Script<[Todo]>([])
    var toggles = Script<Todo>([])
    var creates = Script<Todo>([])
    let session = FakeObserveSession()

    func viewModel() -> TodoListViewModel {
      TodoListViewModel(
        observeTodos: FakeObserveTodos(cached: cached, script: loads),
        toggleTodo: FakeToggleTodo(script: toggles),
        createTodo: FakeCreateTodo(script: creates),
        observeSession: session
      )
    }
  }

  @Test("appearing shows the cached list at once, then the fresh one")
  func cachedThenFresh() async {
    let fresh = Array(Fixtures.todos.prefix(2))
    let fakes = Fakes(cached: Fixtures.todos, loads: Script([.success(fresh)]))
    let viewModel = fakes.viewModel()
    let states = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.refresh)
    let phases = await states.waitForCount(4).map { ($0.phase, $0.todos.count) }
    #expect(phases.map(\.0) == [.idle, .loading, .loading, .loaded])
    #expect(phases.map(\.1) == [0, 0, 3, 2])
  }

  @Test("seed scenario 3: a failed load shows loadFailed and keeps the list; the next refresh shows the list")
  func seedScenario3() async {
    let fakes = Fakes(cached: Fixtures.todos, loads: Script([.failure(.offline), .success(Fixtures.todos)]))
    let viewModel = fakes.viewModel()
    await viewModel.sendAndWait(.refresh)
    #expect(viewModel.state.phase == .loadFailed(message: DomainError.offline.message))
    #expect(viewModel.state.todos == Fixtures.todos, "the cached list stays on screen")
    await viewModel.sendAndWait(.refresh)
    #expect(viewModel.state.phase == .loaded)
  }

  @Test("a new refresh cancels the one in flight, whose late result never shows")
  func latestWins() async {
    let fakes = Fakes(loads: Script([nil, .success(Fixtures.todos)]))
    let viewModel = fakes.viewModel()
    viewModel.send(.refresh)
    await fakes.loads.waitForWaiting(1)
    await viewModel.sendAndWait(.refresh)
    fakes.loads.release(.success([]))
    #expect(viewModel.state.todos == Fixtures.todos)
    #expect(fakes.loads.cancellations == 1)
  }

  @Test("a toggle shows at once and rolls back with a message when the server refuses")
  func optimisticToggle() async throws {
    let fakes = Fakes(loads: Script([.success(Fixtures.todos)]), toggles: Script([nil]))
    let viewModel = fakes.viewModel()
    await viewModel.sendAndWait(.refresh)
    viewModel.send(.toggle(id: 1))
    #expect(viewModel.state.todos.first?.isCompleted == true, "optimistic")
    await fakes.toggles.waitForWaiting(1)
    fakes.toggles.release(.failure(.server(status: 500)))
    await viewModel.sendAndWait(.newTitleChanged(""))
    for _ in 0..<1_000 where viewModel.state.message == nil { await Task.yield() }
    #expect(viewModel.state.todos.first?.isCompleted == false, "rolled back")
    #expect(viewModel.state.message == DomainError.server(status: 500).message)
  }

  @Test("a failed create keeps the typed title, so nothing is lost; a successful one clears it")
  func createKeepsTitle() async throws {
    let created = try Todo(id: 201, userID: 1, title: "water plants", isCompleted: false)
    let fakes = Fakes(creates: Script([.failure(.offline), .success(created)]))
    let viewModel = fakes.viewModel()
    viewModel.send(.newTitleChanged("water plants"))
    await viewModel.sendAndWait(.createTapped)
    #expect(viewModel.state.newTitle == "water plants")
    #expect(viewModel.state.message == DomainError.offline.message)
    await viewModel.sendAndWait(.createTapped)
    #expect(viewModel.state.newTitle.isEmpty)
    #expect(viewModel.state.todos.last == created)
  }

  @Test("when the session ends, the screen emits an event that sends the user to sign in")
  func sessionEnded() async {
    let fakes = Fakes(loads: Script([.success(Fixtures.todos)]))
    let viewModel = fakes.viewModel()
    let events = StreamRecorder(viewModel.events)
    await viewModel.sendAndWait(.refresh)
    viewModel.send(.appeared)
    for _ in 0..<1_000 { await Task.yield() }
    fakes.session.broadcaster.update { $0 = .expired }
    #expect(await events.waitForCount(1) == [.sessionEnded])
  }
}
