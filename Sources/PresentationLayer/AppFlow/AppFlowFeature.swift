public import DomainLayer

/// Which screen the app shows, as state: the sign-in screen while nobody is signed in, the todo
/// list once someone is, and the sign-in screen again, once, when the session ends, whichever
/// screen learnt of it first.
///
/// Each screen is a child feature whose state is present only while it is shown, so a view
/// shows the screen whose state is there and hands it the child's actions. A screen's result
/// comes back as an action of the flow (``Action/loggedIn(_:)``, ``Action/sessionEnded``), and
/// leaving a screen cancels its work.
public struct AppFlowFeature: Feature {
  /// What the user does, on the flow or on one of its screens.
  public enum Action: Sendable, Hashable {
    /// The app started: follow the session, which decides the first screen.
    case started
    /// An action of the sign-in screen.
    case login(LoginFeature.Action)
    /// An action of the todo list.
    case todos(TodoListFeature.Action)
    /// The sign-in screen signed someone in.
    case loggedIn(User)
    /// The session changed: someone signed in, out, or the session expired.
    case sessionChanged(Session)
    /// A screen learnt that the session ended: back to the sign-in screen.
    case sessionEnded
  }

  /// What changes the flow.
  public enum SideEffect: Sendable, Hashable {
    /// The sign-in screen is shown, empty.
    case showLogin
    /// The todo list is shown.
    case showTodos
    /// A side effect of the sign-in screen.
    case login(LoginFeature.SideEffect)
    /// A side effect of the todo list.
    case todos(TodoListFeature.SideEffect)
  }

  /// The screen shown: exactly one of the two is present once the session is known.
  public struct State: Sendable, Hashable {
    /// The sign-in screen's state, while it is shown.
    public var login: LoginFeature.State?
    /// The todo list's state, while it is shown.
    public var todos: TodoListState?

    /// Creates the flow before the session is known: no screen yet.
    public init() {}
  }

  /// The lanes of the flow's work: its own, and each screen's.
  public enum Lane: Sendable, Hashable {
    /// Following the session, for as long as the app runs.
    case session
    /// Work of the sign-in screen.
    case login(LoginFeature.Lane)
    /// Work of the todo list.
    case todos(TodoListFeature.Lane)
  }

  private let login: ChildFeature<Self, LoginFeature>
  private let todos: ChildFeature<Self, TodoListFeature>
  private let observeSession: any ObserveSessionUseCase

  /// Creates the flow over its two screens and the session they share.
  public init(login: LoginFeature, todos: TodoListFeature, observeSession: any ObserveSessionUseCase) {
    self.login = ChildFeature(
      login, state: { $0.login }, action: Action.login, sideEffect: SideEffect.login, lane: Lane.login,
      event: { event in if case .loggedIn(let user) = event { .loggedIn(user) } else { nil } })
    self.todos = ChildFeature(
      todos, state: { $0.todos }, action: Action.todos, sideEffect: SideEffect.todos, lane: Lane.todos,
      event: { event in
        switch event {
        case .sessionEnded: .sessionEnded
        }
      })
    self.observeSession = observeSession
  }

  /// Routes each screen's actions to it, and moves between screens as the session says.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .started:
      let observeSession = self.observeSession
      return .watch(.latest(.session)) { effects in
        for await session in observeSession() { await effects.send(.sessionChanged(session)) }
      }
    case .login(let action):
      return login.plan(for: action, in: state)
    case .todos(let action):
      return todos.plan(for: action, in: state)
    case .loggedIn, .sessionChanged(.signedIn):
      return state.todos == nil ? ActionPlan.immediate(.showTodos).alongside(login.cancel()) : .none
    case .sessionEnded, .sessionChanged(.signedOut), .sessionChanged(.expired):
      return state.login == nil ? ActionPlan.immediate(.showLogin).alongside(todos.cancel()) : .none
    }
  }

  /// Shows one screen or the other, and hands each screen's side effects to its reducer.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .showLogin where state.login == nil:
      state = State()
      state.login = LoginFeature.State()
    case .showTodos where state.todos == nil:
      state = State()
      state.todos = TodoListState()
    case .showLogin, .showTodos:
      break
    case .login(let effect):
      LoginFeature.reduce(&state.login, effect)
    case .todos(let effect):
      TodoListFeature.reduce(&state.todos, effect)
    }
  }
}

/// The app's flow between its screens.
public typealias AppFlowViewModel = ViewModel<AppFlowFeature>
