public import DomainLayer

/// A list searched as the user types: the search goes out once typing pauses, never for every
/// keystroke, and a failed search keeps what was typed and lets the next one run.
public struct SearchListFeature<Item: Sendable & Hashable>: Feature {
  /// What the user does on the search screen.
  public enum Action: Sendable, Hashable {
    /// The text in the search box changed.
    case queryChanged(String)
  }

  /// What changes the search screen.
  public enum SideEffect: Sendable, Hashable {
    /// The box shows `query`.
    case queryChanged(String)
    /// A search went out.
    case searchStarted
    /// The items found for the query in the box.
    case found([Item])
    /// The search failed; the last results stay.
    case failed(DomainError)
  }

  /// What the search screen shows.
  public struct State: Sendable, Hashable {
    /// What the user typed, kept whatever the searches do.
    public var query = ""
    /// The items found for the last query searched.
    public var results: [Item] = []
    /// Whether a search is under way.
    public var isSearching = false
    /// Why the last search failed, in words for the user; `nil` after one that worked.
    public var errorMessage: String?

    /// Creates an empty search.
    public init() {}
  }

  /// The one lane of this screen's work.
  public enum Lane: Sendable, Hashable {
    /// Searching: each keystroke restarts the pause and cancels a search under way.
    case search
  }

  /// How long typing must pause before a search goes out.
  public static var pause: Duration { .milliseconds(300) }

  private let search: @Sendable (String) -> OutcomeStream<[Item], DomainError>

  /// Creates the feature on top of a search use case: `search(query)` finds the items.
  public init(search: @escaping @Sendable (String) -> OutcomeStream<[Item], DomainError>) {
    self.search = search
  }

  /// Shows the new text at once and searches for it once typing pauses.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .queryChanged(let query):
      let search = self.search
      return .run(.debounce(.search, for: Self.pause), immediate: [.queryChanged(query)]) { effects in
        await effects.apply(.searchStarted)
        await effects.follow(
          search(query), onValue: { .apply(.found($0)) }, onFailure: { .apply(.failed($0)) })
      }
    }
  }

  /// Folds one side effect into the screen's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .queryChanged(let query):
      state.query = query
    case .searchStarted:
      state.isSearching = true
    case .found(let items):
      state.isSearching = false
      state.results = items
      state.errorMessage = nil
    case .failed(let error):
      state.isSearching = false
      state.errorMessage = error.message
    }
  }
}

/// The todo search screen's view model.
public typealias TodoSearchViewModel = ViewModel<SearchListFeature<Todo>>

extension ViewModel {
  /// Creates the view model of a list searched with `search`, its box empty, timing the pause
  /// on `clock`.
  public nonisolated convenience init<Item>(
    search: @escaping @Sendable (String) -> OutcomeStream<[Item], DomainError>,
    clock: any Clock<Duration> = ContinuousClock()
  ) where F == SearchListFeature<Item> {
    self.init(SearchListFeature(search: search), initialState: SearchListFeature<Item>.State(), clock: clock)
  }
}
