import DomainLayer
import LayeredSupport
import LayeredTestSupport
import PresentationLayer
import Testing

/// The todo list driven at random against a server that answers each request after a random
/// pause and refuses some toggles: whatever order the answers arrive in, once every request is
/// answered the screen shows each todo the server has, as the server has it.
@Suite("TodoListViewModel against a server that answers late", .serialized, .timeLimit(.minutes(1)))
@MainActor
struct TodoListInterleavingTests {
  @Test(
    "toggles, creates and refreshes answered in any order end with every row as the server has it",
    arguments: 0..<100
  )
  func everyRowEndsAsTheServerHasIt(seed: UInt64) async {
    let server = LateServer(seed: seed)
    let viewModel = TodoListViewModel(
      observeTodos: LateServer.Observe(server: server), toggleTodo: LateServer.Toggle(server: server),
      createTodo: LateServer.Create(server: server), observeSession: FakeObserveSession())
    await viewModel.sendAndWait(.refresh)

    var taps: [Task<Void, Never>] = []
    for _ in 0..<30 {
      let ids = viewModel.state.todos.map(\.id)
      let action: TodoListFeature.Action =
        switch server.random(below: 10) {
        case 0: .refresh
        case 1: .createTapped
        default: .toggle(id: ids[server.random(below: ids.count)])
        }
      viewModel.send(.newTitleChanged("Milk"))
      taps.append(Task { await viewModel.sendAndWait(action) })
      // A sleep, not yields: the main actor stays free for the work and for the other suites.
      try? await Task.sleep(for: .microseconds(server.random(below: 300)))
    }
    for tap in taps { await tap.value }

    let shown = viewModel.state.todos
    #expect(viewModel.state.togglesInFlight.isEmpty)
    #expect(shown.sorted { $0.id < $1.id } == server.todos(), "seed \(seed)")
    #expect(Set(shown.map(\.id)).count == shown.count, "each todo shows once")
  }
}

/// Four todos, then whatever the screen creates; each use case answers after a random number of
/// yields, between reading or writing and answering too, and a toggle is refused 30 % of the time
/// (before anything is written).
private final class LateServer: Sendable {
  private struct Stored {
    var completion: [Int: Bool] = [1: false, 2: true, 3: false, 4: false]
    var generator: SplitMix64
  }

  private let stored: Locked<Stored>

  init(seed: UInt64) {
    stored = Locked(Stored(generator: SplitMix64(seed: seed)))
  }

  /// A number below `bound`, from SplitMix64, so a seed always draws the same numbers.
  func random(below bound: Int) -> Int {
    stored.withLock { Int($0.generator.next() % UInt64(bound)) }
  }

  func pause() async {
    for _ in 0..<random(below: 40) { await Task.yield() }
  }

  func todos() -> [Todo] {
    stored.withLock { stored in
      stored.completion.keys.sorted().compactMap { id in
        stored.completion[id].flatMap { try? Todo(id: id, userID: 1, title: "todo \(id)", isCompleted: $0) }
      }
    }
  }

  private func write(_ isCompleted: Bool, id: Int?) throws(DomainError) -> Todo {
    let id = stored.withLock { stored in
      let id = id ?? (stored.completion.keys.max() ?? 0) + 1
      stored.completion[id] = isCompleted
      return id
    }
    return try Todo(id: id, userID: 1, title: "todo \(id)", isCompleted: isCompleted)
  }

  struct Observe: ObserveTodosUseCase {
    let server: LateServer
    func callAsFunction() -> OutcomeStream<Snapshot<[Todo]>, DomainError> {
      .outcome { () async throws(DomainError) in
        await server.pause()
        let todos = server.todos()
        await server.pause()
        return Snapshot(todos, from: .server)
      }
    }
  }

  struct Toggle: ToggleTodoUseCase {
    let server: LateServer
    func callAsFunction(_ todo: Todo) -> OutcomeStream<Todo, DomainError> {
      .outcome { () async throws(DomainError) in
        await server.pause()
        guard server.random(below: 10) >= 3 else { throw .server(status: 500) }
        let stored = try server.write(!todo.isCompleted, id: todo.id)
        await server.pause()
        return stored
      }
    }
  }

  struct Create: CreateTodoUseCase {
    let server: LateServer
    func callAsFunction(title: String) -> OutcomeStream<Todo, DomainError> {
      .outcome { () async throws(DomainError) in
        await server.pause()
        let created = try server.write(false, id: nil)
        await server.pause()
        return created
      }
    }
  }
}
