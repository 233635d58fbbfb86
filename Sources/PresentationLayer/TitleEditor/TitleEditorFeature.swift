public import DomainLayer

/// An editor of one title, shown as a sheet: the user types a title and saves it, and the item
/// saved comes back. The todo screen saves a new todo with it; a feature could rename with it.
///
/// - A failed save keeps the typed title and shows why, with what the server said is wrong with
///   the title, so nothing typed is lost; a tap on save while a save is in flight does nothing.
/// - The saved item is announced with ``Event/saved(_:)``. Closing the sheet is the presenting
///   screen's business: the editor knows nothing of it.
public struct TitleEditorFeature<Item: Sendable & Hashable>: Feature {
  /// What the user does in the editor.
  public enum Action: Sendable, Hashable {
    /// The user edited the title; carries the whole text.
    case titleChanged(String)
    /// The user tapped save; does nothing while a save is in flight.
    case saveTapped
  }

  /// What changes the editor.
  public enum SideEffect: Sendable, Hashable {
    /// The title now holds this text; what the server said about the old one is cleared.
    case titleChanged(String)
    /// A save went out.
    case saveStarted
    /// The item was saved.
    case saved
    /// The save failed: the title is kept, and `message` and the server's `titleErrors` shown.
    case saveFailed(message: String, titleErrors: [String])
  }

  /// What the editor shows.
  public struct State: Sendable, Hashable {
    /// The title being typed; kept when a save fails.
    public var title = ""
    /// What the server said is wrong with ``title`` when it refused a save.
    public var titleErrors: [String] = []
    /// Whether a save is in flight.
    public var isSaving = false
    /// Why the last save failed, in words for the user.
    public var message: String?

    /// Creates an empty editor.
    public init() {}
  }

  /// What the editor has to say to the screen that shows it.
  public enum Event: Sendable, Hashable {
    /// The item was saved, as the server stored it.
    case saved(Item)
  }

  /// The one lane of the editor's work.
  public enum Lane: Sendable, Hashable {
    /// Saving; a tap while a save is in flight is dropped.
    case save
  }

  private let save: @Sendable (String) -> OutcomeStream<Item, DomainError>

  /// Creates the editor on top of a use case: `save(title)` saves the title and yields the item.
  public init(save: @escaping @Sendable (String) -> OutcomeStream<Item, DomainError>) {
    self.save = save
  }

  /// Shows each edit at once, and saves unless a save is in flight.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .titleChanged(let title):
      return .immediate(.titleChanged(title))
    case .saveTapped:
      guard !state.isSaving else { return .none }
      let (save, title) = (self.save, state.title)
      return .run(.dropWhileBusy(.save), immediate: [.saveStarted]) { effects in
        await effects.follow(
          save(title),
          onValue: { .apply(.saved, emitting: .saved($0)) },
          onFailure: { .apply(.saveFailed(message: $0.message, titleErrors: $0.fieldErrors["title"] ?? [])) }
        )
      }
    }
  }

  /// Folds one side effect into the editor's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .titleChanged(let title):
      state.title = title
      state.titleErrors = []
    case .saveStarted:
      state.isSaving = true
      state.message = nil
      state.titleErrors = []
    case .saved:
      state.isSaving = false
    case .saveFailed(let message, let titleErrors):
      state.isSaving = false
      state.message = message
      state.titleErrors = titleErrors
    }
  }
}
