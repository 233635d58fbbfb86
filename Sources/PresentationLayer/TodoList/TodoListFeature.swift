public import DomainLayer

/// The todo-list screen.
///
/// - Appearing or refreshing (latest wins) shows the cached list at once, then the fresh one.
///   Appearing also watches the session for as long as the screen lives.
/// - A failed load shows ``TodoListState/Phase/loadFailed(message:)`` and keeps the list shown.
/// - Toggling is optimistic: the row flips at once. Toggles of one todo are queued, so they reach
///   the server in the order tapped; each refused toggle undoes only its own flip, so however
///   many fail, the row ends as the server has it.
/// - Creating keeps the typed title when it fails, so nothing is lost.
/// - Each todo shows once: a created todo that a refresh already brought replaces its row, and a
///   list that holds one id twice shows the first.
/// - A list that a load read before a toggle or a create was answered shows what they answered.
/// - When the session ends, ``Event/sessionEnded`` sends the user to sign in, once, however many
///   pieces of work learn of it.
public struct TodoListFeature: Feature {
  /// What the user does on the todo-list screen.
  public enum Action: Sendable, Hashable {
    /// The screen appeared: show the cached list, then the fresh one, and watch the session.
    case appeared
    /// The user asked for a fresh list; a load still under way is replaced.
    case refresh
    /// The user tapped a todo's checkbox: the row flips at once. A tap on a todo that is not in
    /// the list does nothing.
    case toggle(id: Int)
    /// The user edited the new todo's title; carries the whole text.
    case newTitleChanged(String)
    /// The user tapped create; does nothing while a create is in flight.
    case createTapped
  }

  /// What changes the todo-list screen.
  public enum SideEffect: Sendable, Hashable {
    /// A load went out: the screen shows it is loading and keeps the list shown.
    case loadStarted
    /// A list arrived, from the cache or (`isFresh`) from the server, which ends the load. Toggles
    /// still in flight stay flipped on top of it.
    case listReceived([Todo], isFresh: Bool)
    /// The load failed: `message` is shown and the list stays as it was.
    case loadFailed(message: String)
    /// A toggle went out: its row flips at once.
    case toggleStarted(id: Int)
    /// The server accepted a toggle: the row shows the server's todo, with the toggles still in
    /// flight on top.
    case toggleConfirmed(Todo)
    /// The server refused a toggle: its flip is undone and `message` is shown.
    case toggleFailed(id: Int, message: String)
    /// The new todo's title now holds this text.
    case newTitleChanged(String)
    /// A create went out: further taps on create do nothing until it ends.
    case createStarted
    /// The todo was created from `sentTitle`: it joins the end of the list, and the title is
    /// cleared unless something else was typed meanwhile.
    case created(Todo, sentTitle: String)
    /// Creating failed: the typed title is kept, `message` is shown, and so is what the server
    /// said is wrong with the title, if it said.
    case createFailed(message: String, titleErrors: [String])
    /// The session ended; recorded once, however many pieces of work learnt of it.
    case sessionEnded
  }

  /// What the todo-list screen shows.
  public typealias State = TodoListState

  /// The todo-list screen's one-shot outputs.
  public enum Event: Sendable, Hashable {
    /// The session ended: show the sign-in screen.
    case sessionEnded
  }

  /// The groups of this screen's work.
  public enum Lane: Sendable, Hashable {
    /// Loading the list; a newer load cancels the one under way.
    case load
    /// Watching the session, for as long as the screen lives.
    case session
    /// Toggles of one todo, which are queued behind each other.
    case toggle(id: Int)
    /// Creating a todo; a tap while one is in flight is dropped.
    case create
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

  /// Loads on appear and refresh (latest wins), flips a toggled row at once and queues its
  /// request behind the todo's earlier toggles, and creates unless a create is in flight.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .appeared:
      return load().alongside(watchSession())
    case .refresh:
      return load()
    case .toggle(let id):
      guard let todo = state.todos.first(where: { $0.id == id }) else { return .none }
      let toggleTodo = self.toggleTodo
      return .run(.queue(.toggle(id: id)), immediate: [.toggleStarted(id: id)]) { effects in
        await effects.follow(
          toggleTodo(todo),
          onValue: { .apply(.toggleConfirmed($0)) },
          onFailure: { Self.failed($0, .toggleFailed(id: id, message: $0.message)) }
        )
      }
    case .newTitleChanged(let title):
      return .immediate(.newTitleChanged(title))
    case .createTapped:
      guard !state.isCreating else { return .none }
      let (createTodo, title) = (self.createTodo, state.newTitle)
      return .run(.dropWhileBusy(.create), immediate: [.createStarted]) { effects in
        await effects.follow(
          createTodo(title: title),
          onValue: { .apply(.created($0, sentTitle: title)) },
          onFailure: {
            Self.failed($0, .createFailed(message: $0.message, titleErrors: $0.fieldErrors["title"] ?? []))
          }
        )
      }
    }
  }

  private func load() -> ActionPlan<Self> {
    let observeTodos = self.observeTodos
    return .run(.latest(.load), immediate: [.loadStarted]) { effects in
      await effects.follow(
        observeTodos(),
        onValue: { .apply(.listReceived($0.value, isFresh: $0.source == .server)) },
        onFailure: { Self.failed($0, .loadFailed(message: $0.message)) }
      )
    }
  }

  private func watchSession() -> ActionPlan<Self> {
    let observeSession = self.observeSession
    return .watch(.latest(.session)) { effects in
      for await session in observeSession() where session == .expired {
        await effects.react(Self.sessionEnd)
      }
    }
  }

  /// The session's end: recorded in the state, and announced the first time it changes the state,
  /// however many requests (and the session watch) learn of it.
  private static let sessionEnd = Reaction<Self>.apply(.sessionEnded, emittingOnChange: .sessionEnded)

  /// How the screen reacts to a failed request: `effect`, then, when the session has expired,
  /// ``sessionEnd``.
  private static func failed(_ error: DomainError, _ effect: SideEffect) -> Reaction<Self> {
    guard error == .sessionExpired else { return .apply(effect) }
    return .apply(effect).then(Self.sessionEnd)
  }

  /// Folds one side effect into the screen's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loadStarted:
      state.phase = .loading
      state.answeredDuringLoad = []
    case .listReceived(let todos, let isFresh):
      // Each todo shows once, as a list's identifiers need: the first of two with one id.
      var shown = Set<Int>()
      state.todos = todos.filter { shown.insert($0.id).inserted }.map { state.showingTogglesInFlight(on: $0) }
      for todo in state.answeredDuringLoad {
        state.todos.replaceOrAppend(state.showingTogglesInFlight(on: todo))
      }
      if isFresh { (state.phase, state.answeredDuringLoad) = (.loaded, []) }
    case .loadFailed(let message):
      state.phase = .loadFailed(message: message)
      state.answeredDuringLoad = []
    case .toggleStarted(let id):
      state.togglesInFlight[id, default: 0] += 1
      state.flip(todoWithID: id)
      state.message = nil
    case .toggleConfirmed(let todo):
      state.toggleAnswered(id: todo.id)
      state.todos = state.todos.map { $0.id == todo.id ? state.showingTogglesInFlight(on: todo) : $0 }
      state.noteIfLoading(todo)
    case .toggleFailed(let id, let message):
      state.toggleAnswered(id: id)
      state.flip(todoWithID: id)
      state.message = message
    case .newTitleChanged(let title):
      state.newTitle = title
      state.titleErrors = []
    case .createStarted:
      state.isCreating = true
      state.message = nil
      state.titleErrors = []
    case .created(let todo, let sentTitle):
      state.isCreating = false
      if state.newTitle == sentTitle { state.newTitle = "" }
      // A refresh may have brought it already: its row, with the flips in flight undone, is newer.
      var stored = todo
      if let row = state.todos.first(where: { $0.id == todo.id }) {
        stored.isCompleted = state.showingTogglesInFlight(on: row).isCompleted
      }
      state.todos.replaceOrAppend(state.showingTogglesInFlight(on: stored))
      state.noteIfLoading(stored)
    case .createFailed(let message, let titleErrors):
      state.isCreating = false
      state.message = message
      state.titleErrors = titleErrors
    case .sessionEnded:
      state.hasSessionEnded = true
    }
  }
}

extension TodoListState {
  /// Flips a todo's completion: the optimistic change of a toggle, or the undoing of one.
  fileprivate mutating func flip(todoWithID id: Int) {
    guard let index = todos.firstIndex(where: { $0.id == id }) else { return }
    todos[index].isCompleted.toggle()
  }

  fileprivate mutating func toggleAnswered(id: Int) {
    let remaining = (togglesInFlight[id] ?? 1) - 1
    togglesInFlight[id] = remaining > 0 ? remaining : nil
  }

  /// Keeps the server's answer for the list of the load under way, which may have been read before it.
  fileprivate mutating func noteIfLoading(_ todo: Todo) {
    if phase == .loading { answeredDuringLoad.replaceOrAppend(todo) }
  }

  /// `todo` as the server has it, with the flips of the toggles still in flight shown on top.
  fileprivate func showingTogglesInFlight(on todo: Todo) -> Todo {
    var shown = todo
    if (togglesInFlight[todo.id] ?? 0) % 2 == 1 { shown.isCompleted.toggle() }
    return shown
  }
}

extension [Todo] {
  /// Puts `todo` in place of the one with its id, or at the end when there is none.
  fileprivate mutating func replaceOrAppend(_ todo: Todo) {
    if let index = firstIndex(where: { $0.id == todo.id }) {
      self[index] = todo
    } else {
      append(todo)
    }
  }
}

/// The todo-list screen's view model.
public typealias TodoListViewModel = ViewModel<TodoListFeature>

extension ViewModel where F == TodoListFeature {
  /// Creates the view model with an empty, idle screen.
  public nonisolated convenience init(
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
