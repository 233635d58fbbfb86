public import DomainLayer

/// Where a todo's comments come from and where new ones go. Failures are `DomainError`s.
public protocol TodoCommentRepository: Sendable {
  /// The comments on the todo with `todoID`, oldest first.
  func comments(onTodo todoID: Int) async throws(DomainError) -> [TodoComment]
  /// Adds a comment saying `body` to the todo with `todoID` and returns it as stored.
  func addComment(_ body: String, toTodo todoID: Int) async throws(DomainError) -> TodoComment
}
