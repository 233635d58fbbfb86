import DomainLayer
public import PresentationLayer

/// The comments of one todo.
///
/// - Appearing loads them; a failed load keeps what was shown and says why.
/// - Loads and adds take turns, so a load never brings a list read before an add and hides it.
/// - Adding keeps the typed text when it fails, and whatever was typed while it was under way;
///   taps while an add is under way do nothing.
public struct CommentsFeature: Feature {
  /// What the user does on the comments screen.
  public enum Action: Sendable, Hashable {
    case appeared
    case draftChanged(String)
    case addTapped
  }

  /// What changes the comments screen.
  public enum SideEffect: Sendable, Hashable {
    case loaded([TodoComment])
    case draftChanged(String)
    case addStarted
    case added(TodoComment, sentBody: String)
    case loadFailed(message: String)
    case addFailed(message: String)
  }

  /// What the comments screen shows.
  public struct State: Sendable, Hashable {
    /// The todo whose comments these are.
    public let todoID: Int
    /// The comments as the server last answered, oldest first.
    public var comments: [TodoComment] = []
    /// The comment being typed; kept when adding fails.
    public var draft = ""
    /// Whether an add is in flight; while it is, tapping add does nothing.
    public var isAdding = false
    /// Why the last load or add failed, in words for the user.
    public var message: String?

    /// The empty screen for the todo with `todoID`.
    public init(todoID: Int) {
      self.todoID = todoID
    }
  }

  /// This screen emits no events.
  public enum Event: Sendable, Hashable {}

  /// The groups of this screen's work.
  public enum Lane: Sendable, Hashable {
    /// Loads and adds, queued behind each other in the order sent.
    case comments
  }

  private let loadComments: any LoadCommentsUseCase
  private let addComment: any AddCommentUseCase

  /// Creates the feature on its use cases.
  public init(loadComments: any LoadCommentsUseCase, addComment: any AddCommentUseCase) {
    self.loadComments = loadComments
    self.addComment = addComment
  }

  /// The work each action starts, under the policy of its lane.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .appeared:
      let (loadComments, todoID) = (self.loadComments, state.todoID)
      return .run(.queue(.comments)) { effects in
        await effects.follow(
          loadComments(todoID: todoID), onValue: { .apply(.loaded($0)) },
          onFailure: { .apply(.loadFailed(message: $0.message)) })
      }
    case .draftChanged(let text):
      return .immediate(.draftChanged(text))
    case .addTapped:
      guard !state.isAdding else { return .none }
      let (addComment, todoID, draft) = (self.addComment, state.todoID, state.draft)
      return .run(.queue(.comments), immediate: [.addStarted]) { effects in
        await effects.follow(
          addComment(draft, todoID: todoID), onValue: { .apply(.added($0, sentBody: draft)) },
          onFailure: { .apply(.addFailed(message: $0.message)) })
      }
    }
  }

  /// Folds one side effect into the screen's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loaded(let comments):
      state.comments = comments
      state.message = nil
    case .draftChanged(let text):
      state.draft = text
    case .addStarted:
      state.isAdding = true
      state.message = nil
    case .added(let comment, let sentBody):
      state.isAdding = false
      if state.draft == sentBody { state.draft = "" }
      state.comments.append(comment)
    case .loadFailed(let message):
      state.message = message
    case .addFailed(let message):
      state.isAdding = false
      state.message = message
    }
  }
}

/// The comments screen's view model.
public typealias CommentsViewModel = ViewModel<CommentsFeature>
