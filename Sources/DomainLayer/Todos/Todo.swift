/// One item on a person's todo list.
///
/// A `Todo` is always valid: its identifiers are positive and its title is not blank. Values that
/// break these rules are rejected where they enter the app (see ``init(id:userID:title:isCompleted:)``),
/// so no screen ever has to handle a half-valid todo.
public struct Todo: Sendable, Hashable, Identifiable {
  /// The server's identifier, unique among todos.
  public let id: Int
  /// The identifier of the person the todo belongs to.
  public let userID: Int
  /// What is to be done; never empty or only white space.
  public let title: String
  /// Whether it has been done.
  public var isCompleted: Bool

  /// Creates a todo, or fails with ``DomainError/invalidData(reason:)`` if a value breaks an invariant.
  public init(id: Int, userID: Int, title: String, isCompleted: Bool) throws(DomainError) {
    guard id > 0 else { throw .invalidData(reason: "todo id must be positive, got \(id)") }
    guard userID > 0 else {
      throw .invalidData(reason: "todo \(id): user id must be positive, got \(userID)")
    }
    guard !title.isBlank else { throw .invalidData(reason: "todo \(id): title is blank") }
    self.id = id
    self.userID = userID
    self.title = title
    self.isCompleted = isCompleted
  }
}
