public import DomainLayer

/// A comment on a todo. Named `TodoComment` because Swift Testing's `Comment` would make a bare
/// `Comment` ambiguous in every test file that imports both.
///
/// Always valid: its ids are positive and its body is not blank.
public struct TodoComment: Sendable, Hashable, Identifiable {
  /// The server's id for the comment.
  public let id: Int
  /// The todo it belongs to.
  public let todoID: Int
  /// What was said; never empty or only white space.
  public let body: String

  /// Creates a comment, or fails with `DomainError.invalidData(reason:)` if a value breaks an
  /// invariant.
  public init(id: Int, todoID: Int, body: String) throws(DomainError) {
    guard id > 0, todoID > 0 else { throw .invalidData(reason: "comment \(id): ids must be positive") }
    guard body.contains(where: { !$0.isWhitespace }) else {
      throw .invalidData(reason: "comment \(id): body is blank")
    }
    self.id = id
    self.todoID = todoID
    self.body = body
  }
}
