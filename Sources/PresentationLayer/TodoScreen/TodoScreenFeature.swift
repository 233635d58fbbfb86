public import DomainLayer

/// The todo screen, made of parts: a search bar over the todos it finds, and an editor of a new
/// todo shown as a sheet.
///
/// - The search bar and its list are a ``SearchListFeature``; the sheet is a ``TitleEditorFeature``.
///   Both run under this screen's view model, in lanes of its own, and know nothing of it.
/// - A todo saved in the sheet closes it, joins the top of the list (once, if a search found it
///   first, and still when a search begun before the save answers after it), and shows a banner
///   that hides after ``bannerDuration`` on the view model's clock.
/// - Closing the sheet cancels its save, and the request under it: the todo is not added.
public struct TodoScreenFeature: Feature {
  /// What the user does on the todo screen.
  public enum Action: Sendable, Hashable {
    /// An action of the search bar.
    case search(SearchListFeature<Todo>.Action)
    /// The user tapped add: the editor opens, empty. Does nothing while it is open.
    case addTapped
    /// An action of the editor.
    case editor(TitleEditorFeature<Todo>.Action)
    /// The user closed the editor: whatever it was doing stops.
    case editorDismissed
    /// The editor saved a todo.
    case editorSaved(Todo)
  }

  /// What changes the todo screen.
  public enum SideEffect: Sendable, Hashable {
    /// A side effect of the search bar.
    case search(SearchListFeature<Todo>.SideEffect)
    /// A side effect of the editor.
    case editor(TitleEditorFeature<Todo>.SideEffect)
    /// The editor is shown, empty.
    case editorPresented
    /// The editor is gone.
    case editorClosed
    /// A todo was added: the editor closes, the todo joins the top of the list and a banner says so.
    case added(Todo)
    /// The banner is gone.
    case bannerHidden
  }

  /// What the todo screen shows.
  public struct State: Sendable, Hashable {
    /// The search bar and the todos it found.
    public var search = SearchListFeature<Todo>.State()
    /// The editor, while its sheet is shown.
    public var editor: TitleEditorFeature<Todo>.State?
    /// A short message about what just happened, while it is shown.
    public var banner: String?
    /// The todos added while a search was under way: its results may have been read before them,
    /// so they are put back on top of those results.
    public var addedDuringSearch: [Todo] = []

    /// Creates the screen with an empty search and no sheet.
    public init() {}
  }

  /// The lanes of the screen's work: each part's, and the banner's.
  public enum Lane: Sendable, Hashable {
    /// Work of the search bar.
    case search(SearchListFeature<Todo>.Lane)
    /// Work of the editor.
    case editor(TitleEditorFeature<Todo>.Lane)
    /// Hiding the banner; a newer banner restarts the wait.
    case banner
  }

  /// How long the banner stays after a todo is added.
  public static var bannerDuration: Duration { .seconds(2) }

  private let search: ChildFeature<Self, SearchListFeature<Todo>>
  private let editor: ChildFeature<Self, TitleEditorFeature<Todo>>

  /// Creates the screen on top of the use cases its parts need.
  public init(searchTodos: any SearchTodosUseCase, createTodo: any CreateTodoUseCase) {
    search = ChildFeature(
      SearchListFeature(search: { searchTodos($0) }), state: { $0.search }, action: Action.search,
      sideEffect: SideEffect.search, lane: Lane.search)
    editor = ChildFeature(
      TitleEditorFeature(save: { createTodo(title: $0) }), state: { $0.editor }, action: Action.editor,
      sideEffect: SideEffect.editor, lane: Lane.editor,
      event: { event in
        switch event {
        case .saved(let todo): .editorSaved(todo)
        }
      })
  }

  /// Routes each part's actions to it, opens and closes the sheet, and times the banner.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .search(let action):
      return search.plan(for: action, in: state)
    case .addTapped:
      return state.editor == nil ? .immediate(.editorPresented) : .none
    case .editor(let action):
      return editor.plan(for: action, in: state)
    case .editorDismissed:
      return ActionPlan.immediate(.editorClosed).alongside(editor.cancel())
    case .editorSaved(let todo):
      return .run(.latest(.banner), immediate: [.added(todo)]) { effects in
        do { try await effects.sleep(for: Self.bannerDuration) } catch { return }
        await effects.apply(.bannerHidden)
      }
    }
  }

  /// Folds one side effect into the screen's state, handing each part's to its own reducer.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .search(let effect):
      SearchListFeature<Todo>.reduce(&state.search, effect)
      switch effect {
      case .found:
        for todo in state.addedDuringSearch { state.putOnTop(todo) }
        state.addedDuringSearch = []
      case .searchStarted, .failed: state.addedDuringSearch = []
      case .queryChanged: break
      }
    case .editor(let effect):
      TitleEditorFeature<Todo>.reduce(&state.editor, effect)
    case .editorPresented:
      state.editor = TitleEditorFeature<Todo>.State()
    case .editorClosed:
      state.editor = nil
    case .added(let todo):
      state.editor = nil
      state.putOnTop(todo)
      if state.search.isSearching { state.addedDuringSearch.append(todo) }
      state.banner = "Added “\(todo.title)”"
    case .bannerHidden:
      state.banner = nil
    }
  }
}

extension TodoScreenFeature.State {
  /// Shows `todo` first in the list, once: a search may have found it before the save's answer came.
  fileprivate mutating func putOnTop(_ todo: Todo) {
    search.results.removeAll { $0.id == todo.id }
    search.results.insert(todo, at: 0)
  }
}

/// The todo screen's view model.
public typealias TodoScreenViewModel = ViewModel<TodoScreenFeature>

extension ViewModel where F == TodoScreenFeature {
  /// Creates the view model with an empty search and no sheet, timing the search's pause and
  /// the banner on `clock`.
  public nonisolated convenience init(
    searchTodos: any SearchTodosUseCase,
    createTodo: any CreateTodoUseCase,
    clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.init(
      TodoScreenFeature(searchTodos: searchTodos, createTodo: createTodo),
      initialState: TodoScreenFeature.State(), clock: clock)
  }
}
