public import DomainLayer

/// The todo-list screen.
///
/// - Appearing or refreshing (latest wins) shows the cached list at once, then the fresh one.
/// - A failed load shows ``TodoListState/Phase/loadFailed(message:)`` and keeps the list shown.
/// - Toggling is optimistic: the row flips at once and flips back, with a message, if the server
///   refuses. Toggles of one todo are queued, so they reach the server in the order tapped.
/// - Creating keeps the typed title when it fails, so nothing is lost.
/// - When the session ends, ``Event/sessionEnded`` sends the user to sign in.
public struct TodoListFeature: Feature {
  public enum Action: Sendable, Hashable {
    case appeared
    case refresh
    case toggle(id: Int)
    case newTitleChanged(String)
    case createTapped
  }

  public enum SideEffect: Sendable, Hashable {
    case loadStarted
    case listReceived([Todo], isFresh: Bool)
    case loadFailed(message: String)
    case toggleStarted(id: Int)
    case toggleConfirmed(Todo)
    case toggleFailed(id: Int, isCompleted: Bool, message: String)
    case newTitleChanged(String)
    case createStarted
    case created(Todo)
    case createFailed(message: String)
  }

  public typealias State = TodoListState

  public enum Event: Sendable, Hashable {
    /// The session ended: show the sign-in screen.
    case sessionEnded
  }

  private let observeTodos: any ObserveTodosUseCase
  private let toggleTodo: any ToggleTodoUseCase
  private let createTodo: any CreateTodoUseCase
  private let observeSession: any ObserveSessionUseCase

  /// Creates the feature on top of its use cases.
  public init(
    observeTodos: any ObserveTodosUseCase,
    toggleTodo: any ToggleTodoUseCase,
    createTodo: any CreateTodoUseCase,
    observeSession: any ObserveSessionUseCase
  ) {
    self.observeTodos = observeTodos
    self.toggleTodo = toggleTodo
    self.createTodo = createTodo
    self.observeSession = observeSession
  }

  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .appeared:
      return load().alongside(watchSession())
    case .refresh:
      return load()
    case .toggle(let id):
      guard let todo = state.todos.first(where: { $0.id == id }) else { return .none }
      let toggleTodo = self.toggleTodo
      return .run(.queue("toggle-\(id)"), immediate: [.toggleStarted(id: id)]) { effects in
        for await outcome in toggleTodo(todo) {
          switch outcome {
          case .success(let stored):
            effects.apply(.toggleConfirmed(stored))
          case .failure(.cancelled):
            break
          case .failure(let error):
            effects.apply(.toggleFailed(id: id, isCompleted: todo.isCompleted, message: error.message))
            if error == .sessionExpired { effects.emit(.sessionEnded) }
          }
        }
      }
    case .newTitleChanged(let title):
      return .immediate(.newTitleChanged(title))
    case .createTapped:
      guard !state.isCreating else { return .none }
      let (createTodo, title) = (self.createTodo, state.newTitle)
      return .run(.dropWhileBusy("create"), immediate: [.createStarted]) { effects in
        for await outcome in createTodo(title: title) {
          switch outcome {
          case .success(let todo):
            effects.apply(.created(todo))
          case .failure(.cancelled):
            break
          case .failure(let error):
            effects.apply(.createFailed(message: error.message))
            if error == .sessionExpired { effects.emit(.sessionEnded) }
          }
        }
      }
    }
  }

  private func load() -> ActionPlan<Self> {
    let observeTodos = self.observeTodos
    return .run(.latest("load"), immediate: [.loadStarted]) { effects in
      for await outcome in observeTodos() {
        switch outcome {
        case .success(let snapshot):
          effects.apply(.listReceived(snapshot.value, isFresh: snapshot.source == .server))
        case .failure(.cancelled):
          break
        case .failure(let error):
          effects.apply(.loadFailed(message: error.message))
          if error == .sessionExpired { effects.emit(.sessionEnded) }
        }
      }
    }
  }

  private func watchSession() -> ActionPlan<Self> {
    let observeSession = self.observeSession
    return .run(.latest("session")) { effects in
      for await session in observeSession() where session == .expired {
        effects.emit(.sessionEnded)
      }
    }
  }

  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loadStarted:
      state.phase = .loading
    case .listReceived(let todos, let isFresh):
      state.todos = todos
      if isFresh { state.phase = .loaded }
    case .loadFailed(let message):
      state.phase = .loadFailed(message: message)
    case .toggleStarted(let id):
      state.setCompleted(nil, forTodoWithID: id)
      state.message = nil
    case .toggleConfirmed(let todo):
      state.todos = state.todos.map { $0.id == todo.id ? todo : $0 }
    case .toggleFailed(let id, let isCompleted, let message):
      state.setCompleted(isCompleted, forTodoWithID: id)
      state.message = message
    case .newTitleChanged(let title):
      state.newTitle = title
    case .createStarted:
      state.isCreating = true
      state.message = nil
    case .created(let todo):
      state.isCreating = false
      state.newTitle = ""
      state.todos.append(todo)
    case .createFailed(let message):
      state.isCreating = false
      state.message = message
    }
  }
}

extension TodoListState {
  /// Sets a todo's completion, or flips it when `isCompleted` is `nil`.
  fileprivate mutating func setCompleted(_ isCompleted: Bool?, forTodoWithID id: Int) {
    guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
    todos[index].isCompleted = isCompleted ?? !todos[index].isCompleted
  }
}

/// The todo-list screen's view model.
public typealias TodoListViewModel = ViewModel<TodoListFeature>

extension ViewModel where F == TodoListFeature {
  /// Creates the view model with an empty, idle screen.
  public convenience init(
    observeTodos: any ObserveTodosUseCase,
    toggleTodo: any ToggleTodoUseCase,
    createTodo: any CreateTodoUseCase,
    observeSession: any ObserveSessionUseCase
  ) {
    self.init(
      TodoListFeature(
        observeTodos: observeTodos,
        toggleTodo: toggleTodo,
        createTodo: createTodo,
        observeSession: observeSession
      ),
      initialState: TodoListState()
    )
  }
}
