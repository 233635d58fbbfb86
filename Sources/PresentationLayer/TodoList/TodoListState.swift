public import DomainLayer

/// What the todo-list screen shows.
public struct TodoListState: Sendable, Hashable {
  /// Where loading stands.
  public enum Phase: Sendable, Hashable {
    /// Nothing asked for yet.
    case idle
    /// A load is under way; ``TodoListState/todos`` may already hold the cached list.
    case loading
    /// The list is fresh from the server.
    case loaded
    /// The last load failed; ``TodoListState/todos`` still holds what was shown before.
    case loadFailed(message: String)
  }

  /// The list as shown, including optimistic changes not yet confirmed.
  public var todos: [Todo] = []
  /// Where loading stands; ``todos`` is shown in every phase.
  public var phase: Phase = .idle
  /// The title being typed for a new todo; kept when creating fails, so nothing typed is lost.
  public var newTitle = ""
  /// What the server said is wrong with ``newTitle`` when it refused a create; cleared when the
  /// title changes or a create starts.
  public var titleErrors: [String] = []
  /// Whether a create is in flight; while it is, tapping create does nothing.
  public var isCreating = false
  /// A message about the last failed change, in words for the user.
  public var message: String?
  /// How many toggles of each todo (by id) the server has not answered yet. Each one flipped its
  /// row when tapped, and each refused one flips it back, so the row always shows what the
  /// server has, flipped once per unanswered toggle.
  public var togglesInFlight: [Int: Int] = [:]
  /// The server's answers to toggles and creates that came while a load was under way: the list
  /// that load brings may have been read before them, so they are shown on top of it.
  public var answeredDuringLoad: [Todo] = []
  /// Whether this screen has learnt that the session ended.
  public var hasSessionEnded = false

  /// Creates the empty screen.
  public init() {}
}

extension TodoListState: CustomStringConvertible {
  /// One line for logs and test failures, texts escaped: the phase, counts and flags, not every todo.
  public var description: String {
    let phase: String =
      switch phase {
      case .idle: "idle"
      case .loading: "loading"
      case .loaded: "loaded"
      case .loadFailed(let message): "loadFailed(\(message.quoted))"
      }
    let done = todos.filter(\.isCompleted).count
    var parts = ["\(phase)", "\(todos.count) todos (\(done) done)"]
    if !newTitle.isEmpty { parts.append("typing \(newTitle.quoted)") }
    if !titleErrors.isEmpty { parts.append("title errors \(titleErrors)") }
    if isCreating { parts.append("creating") }
    if let message { parts.append("message \(message.quoted)") }
    let toggling = togglesInFlight.values.reduce(0, +)
    if toggling > 0 { parts.append("\(toggling) toggles in flight") }
    if hasSessionEnded { parts.append("session ended") }
    return "TodoList(" + parts.joined(separator: ", ") + ")"
  }
}
