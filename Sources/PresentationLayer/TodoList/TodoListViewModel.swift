public import DomainLayer

/// The todo-list screen's logic: actions in, states out.
///
/// Work follows Action → SideEffect → State. ``send(_:)`` starts the work for an action; the work
/// produces side effects (a load started, a load finished with an outcome); the pure
/// ``reduce(_:_:)`` folds each side effect into the state, which every observer of ``states``
/// receives.
///
/// Guarantees:
/// - a failed load is a side effect like any other: it sets ``TodoListState/failed(message:)``
///   and the next ``Action/refresh`` works as if nothing had happened;
/// - refreshes are "latest wins": a new refresh cancels the one in flight, and an outcome of a
///   superseded load never reaches the state;
/// - releasing the view model cancels its work (and with it the HTTP request) and finishes its
///   state streams. Its tasks hold it weakly, so in-flight work never keeps it alive.
public final class TodoListViewModel: Sendable {
  /// What the screen can ask for.
  public enum Action: Sendable, Hashable {
    /// Load the list (again).
    case refresh
  }

  /// What work reports back; the only input of the reducer.
  public enum SideEffect: Sendable, Hashable {
    case loadStarted
    case loadFinished(Outcome<[Todo]>)
  }

  private struct Work {
    var generation = 0
    var task: Task<Void, Never>?
  }

  private let loadTodos: any LoadTodosUseCase
  private let broadcaster = StateBroadcaster(TodoListState.idle)
  private let work = Locked(Work())

  /// Creates the view model on top of the use case that loads todos.
  public init(loadTodos: any LoadTodosUseCase) {
    self.loadTodos = loadTodos
  }

  deinit {
    work.withLock { $0.task?.cancel() }
    broadcaster.finish()
  }

  /// The current state.
  public var state: TodoListState { broadcaster.value }

  /// A stream of states for one observer: the current state at once, then every change.
  /// Any number of observers may listen at the same time.
  public var states: AsyncStream<TodoListState> { broadcaster.values() }

  /// Starts the work for `action` and returns at once.
  public func send(_ action: Action) {
    _ = start(action)
  }

  /// Starts the work for `action` and returns when that work has finished (or was superseded).
  public func sendAndWait(_ action: Action) async {
    await start(action).value
  }

  /// Folds one side effect into the state. Pure: the same inputs always give the same state.
  public static func reduce(_ state: inout TodoListState, _ effect: SideEffect) {
    switch effect {
    case .loadStarted:
      state = .loading
    case .loadFinished(.success(let todos)):
      state = .loaded(todos)
    case .loadFinished(.failure(.cancelled)):
      break
    case .loadFinished(.failure(let error)):
      state = .failed(message: error.message)
    }
  }

  private func start(_ action: Action) -> Task<Void, Never> {
    switch action {
    case .refresh:
      return work.withLock { work in
        work.task?.cancel()
        work.generation += 1
        let generation = work.generation
        let loadTodos = self.loadTodos
        let task = Task { [weak self] in
          self?.apply(.loadStarted, generation: generation)
          for await outcome in loadTodos() {
            self?.apply(.loadFinished(outcome), generation: generation)
          }
        }
        work.task = task
        return task
      }
    }
  }

  /// Applies `effect` only if it comes from the newest load, so a superseded load cannot
  /// overwrite the state of the one that replaced it.
  private func apply(_ effect: SideEffect, generation: Int) {
    work.withLock { work in
      guard work.generation == generation else { return }
      broadcaster.update { Self.reduce(&$0, effect) }
    }
  }
}
