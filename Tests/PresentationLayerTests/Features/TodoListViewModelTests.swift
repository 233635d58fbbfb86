import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("TodoListViewModel", .timeLimit(.minutes(1)))
@MainActor
struct TodoListViewModelTests {
  private struct Fakes {
    var cached: [Todo]? = nil
    var loads = Script<[Todo]>([])
    var toggles = Script<Todo>([])
    var creates = Script<Todo>([])
    let session = FakeObserveSession()

    func feature() -> TodoListFeature {
      TodoListFeature(
        observeTodos: FakeObserveTodos(cached: cached, script: loads),
        toggleTodo: FakeToggleTodo(script: toggles),
        createTodo: FakeCreateTodo(script: creates),
        observeSession: session
      )
    }

    @MainActor
    func store(showing todos: [Todo] = []) -> TestStore<TodoListFeature> {
      var state = TodoListState()
      state.todos = todos
      return TestStore(feature(), initialState: state)
    }
  }

  private static let refused = DomainError.server(status: 500)

  @Test("appearing shows the cached list at once, then the fresh one")
  func cachedThenFresh() async {
    let fresh = Array(Fixtures.todos.prefix(2))
    let fakes = Fakes(cached: Fixtures.todos, loads: Script([.success(fresh)]))
    let store = fakes.store()
    store.send(.refresh) { $0.phase = .loading }
    await store.receive { $0.todos = Fixtures.todos }
    await store.receive {
      $0.todos = fresh
      $0.phase = .loaded
    }
    await store.finish()
  }

  @Test("seed scenario 3: a failed load shows loadFailed and keeps the list; the next refresh shows the list")
  func seedScenario3() async {
    let fakes = Fakes(cached: Fixtures.todos, loads: Script([.failure(.offline), .success(Fixtures.todos)]))
    let store = fakes.store()
    store.send(.refresh) { $0.phase = .loading }
    await store.receive { $0.todos = Fixtures.todos }
    await store.receive { $0.phase = .loadFailed(message: DomainError.offline.message) }
    store.send(.refresh) { $0.phase = .loading }
    await store.receive { $0.phase = .loaded }
    #expect(store.state.todos == Fixtures.todos, "the list stayed on screen throughout")
    await store.finish()
  }

  @Test("a new refresh cancels the one in flight, whose late result never shows")
  func latestWins() async {
    let fakes = Fakes(loads: Script([nil, .success(Fixtures.todos)]))
    let store = fakes.store()
    store.send(.refresh) { $0.phase = .loading }
    await fakes.loads.waitForWaiting(1)
    store.send(.refresh)
    fakes.loads.release(.success([]))
    await store.receive {
      $0.todos = Fixtures.todos
      $0.phase = .loaded
    }
    await store.finish()
    #expect(fakes.loads.cancellations == 1)
  }

  @Test("a toggle shows at once and rolls back with a message when the server refuses")
  func optimisticToggle() async {
    let fakes = Fakes(toggles: Script([.failure(Self.refused)]))
    let store = fakes.store(showing: Fixtures.todos)
    store.send(.toggle(id: 1)) {
      $0.todos[0].isCompleted = true
      $0.togglesInFlight = [1: 1]
    }
    await store.receive {
      $0.todos[0].isCompleted = false
      $0.togglesInFlight = [:]
      $0.message = Self.refused.message
    }
    await store.finish()
  }

  @Test("two queued toggles of one todo that both fail leave the row as the server has it")
  func twoFailedTogglesLeaveServerValue() async {
    let fakes = Fakes(toggles: Script([nil, nil]))
    let store = fakes.store(showing: Fixtures.todos)
    store.send(.toggle(id: 1)) {
      $0.todos[0].isCompleted = true
      $0.togglesInFlight = [1: 1]
    }
    store.send(.toggle(id: 1)) {
      $0.todos[0].isCompleted = false
      $0.togglesInFlight = [1: 2]
    }
    await fakes.toggles.waitForWaiting(1)
    fakes.toggles.release(.failure(Self.refused))
    await store.receive {
      $0.todos[0].isCompleted = true
      $0.togglesInFlight = [1: 1]
      $0.message = Self.refused.message
    }
    await fakes.toggles.waitForWaiting(1)
    fakes.toggles.release(.failure(Self.refused))
    await store.receive {
      $0.todos[0].isCompleted = false
      $0.togglesInFlight = [:]
    }
    await store.finish()
    #expect(store.state.todos[0].isCompleted == Fixtures.todos[0].isCompleted, "as the server has it")
  }

  @Test("of two queued toggles, a confirmed first and a refused second leave the row as the server has it")
  func confirmedThenRefusedToggleLeavesServerValue() async throws {
    let stored = try Todo(id: 1, userID: 1, title: "todo 1", isCompleted: true)
    let fakes = Fakes(toggles: Script([nil, nil]))
    let store = fakes.store(showing: Fixtures.todos)
    store.send(.toggle(id: 1)) {
      $0.todos[0].isCompleted = true
      $0.togglesInFlight = [1: 1]
    }
    store.send(.toggle(id: 1)) {
      $0.todos[0].isCompleted = false
      $0.togglesInFlight = [1: 2]
    }
    await fakes.toggles.waitForWaiting(1)
    fakes.toggles.release(.success(stored))
    // The server has it done; the second toggle, still in flight, shows it undone.
    await store.receive { $0.togglesInFlight = [1: 1] }
    await fakes.toggles.waitForWaiting(1)
    fakes.toggles.release(.failure(Self.refused))
    await store.receive {
      $0.todos[0].isCompleted = true
      $0.togglesInFlight = [:]
      $0.message = Self.refused.message
    }
    await store.finish()
  }

  @Test("a failed create keeps the typed title, so nothing is lost; a successful one clears it")
  func createKeepsTitle() async throws {
    let created = try Todo(id: 201, userID: 1, title: "water plants", isCompleted: false)
    let fakes = Fakes(creates: Script([.failure(.offline), .success(created)]))
    let store = fakes.store()
    store.send(.newTitleChanged("water plants")) { $0.newTitle = "water plants" }
    let create = store.send(.createTapped) { $0.isCreating = true }
    await store.receive {
      $0.isCreating = false
      $0.message = DomainError.offline.message
    }
    // The create lane drops taps until the failed create's work has returned.
    await create.finish()
    store.send(.createTapped) {
      $0.isCreating = true
      $0.message = nil
    }
    await store.receive {
      $0.isCreating = false
      $0.newTitle = ""
      $0.todos = [created]
    }
    await store.finish()
  }

  @Test("a title typed while a create is on its way stays in the field when the create answers")
  func titleTypedDuringCreateStays() async throws {
    let created = try Todo(id: 201, userID: 1, title: "water plants", isCompleted: false)
    let fakes = Fakes(creates: Script([nil]))
    let store = fakes.store()
    store.send(.newTitleChanged("water plants")) { $0.newTitle = "water plants" }
    store.send(.createTapped) { $0.isCreating = true }
    await fakes.creates.waitForWaiting(1)
    store.send(.newTitleChanged("buy milk")) { $0.newTitle = "buy milk" }
    fakes.creates.release(.success(created))
    await store.receive {
      $0.isCreating = false
      $0.todos = [created]
    }
    await store.finish()
  }

  @Test("when the session ends, the screen emits an event that sends the user to sign in")
  func sessionEnded() async {
    let fakes = Fakes(loads: Script([.success(Fixtures.todos)]))
    let store = fakes.store()
    store.send(.appeared) { $0.phase = .loading }
    await store.receive {
      $0.todos = Fixtures.todos
      $0.phase = .loaded
    }
    fakes.session.broadcaster.update { $0 = .expired }
    await store.receive { $0.hasSessionEnded = true }
    await store.receive(event: .sessionEnded)
    await store.finish()
  }

  @Test("an appeared screen whose load fails because the session ended emits sessionEnded exactly once")
  func sessionEndedOnce() async {
    let fakes = Fakes(loads: Script([nil]))
    let store = fakes.store()
    store.send(.appeared) { $0.phase = .loading }
    await fakes.loads.waitForWaiting(1)
    // The data layer ends the session and fails the request; the screen learns of it twice.
    fakes.session.broadcaster.update { $0 = .expired }
    await store.receive { $0.hasSessionEnded = true }
    await store.receive(event: .sessionEnded)
    fakes.loads.release(.failure(.sessionExpired))
    await store.receive { $0.phase = .loadFailed(message: DomainError.sessionExpired.message) }
    // A second `sessionEnded` (a second trip to the sign-in screen) would fail here.
    await store.finish()
  }

  @Test(
    "a load that fails because the session ended, before the session watch hears of it, emits sessionEnded once"
  )
  func sessionEndedOnceLoadFirst() async {
    let fakes = Fakes(loads: Script([nil]))
    let store = fakes.store()
    store.send(.appeared) { $0.phase = .loading }
    await fakes.loads.waitForWaiting(1)
    fakes.loads.release(.failure(.sessionExpired))
    await store.receive { $0.phase = .loadFailed(message: DomainError.sessionExpired.message) }
    await store.receive { $0.hasSessionEnded = true }
    await store.receive(event: .sessionEnded)
    // The watch learns of the same end afterwards: it must neither change the state nor emit.
    fakes.session.broadcaster.update { $0 = .expired }
    await fakes.session.waitUntilExpiryHandled()
    await store.finish()
  }

  @Test("sendAndWait(.appeared) returns once the list has loaded, though the session watch goes on")
  func appearedReturns() async {
    let fakes = Fakes(loads: Script([.success(Fixtures.todos)]))
    let viewModel = TodoListViewModel(feature: fakes.feature())
    // Before the fix this never returned: it waited for the endless session watch too.
    await viewModel.sendAndWait(.appeared)
    #expect(viewModel.state.phase == .loaded)
    #expect(viewModel.hasLiveWork, "the watch is still running")
    fakes.session.broadcaster.update { $0 = .expired }
    for await state in viewModel.states where state.hasSessionEnded { break }
    viewModel.cancel()
  }
}

extension ViewModel where F == TodoListFeature {
  fileprivate convenience init(feature: TodoListFeature) {
    self.init(feature, initialState: TodoListState())
  }
}
