public import DomainLayer

/// What the todo-list screen shows.
public enum TodoListState: Sendable, Hashable {
  /// Nothing has been asked for yet.
  case idle
  /// A load is under way.
  case loading
  /// The list, as last loaded.
  case loaded([Todo])
  /// The last load failed; `message` can be shown to a person as it is.
  case failed(message: String)
}
