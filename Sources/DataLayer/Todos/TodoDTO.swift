/// A todo exactly as the API sends it (JSONPlaceholder's shape).
///
/// DTOs mirror the wire format and nothing else; they are mapped to domain entities with
/// ``toDomain()`` as soon as they are decoded, and never travel above the data layer.
public struct TodoDTO: Codable, Sendable, Hashable {
  /// The owner's id, `userId` on the wire; becomes `Todo.userID`.
  public var userId: Int
  /// The server's id for the todo.
  public var id: Int
  /// The title as the server stored it; ``toDomain()`` rejects a blank one.
  public var title: String
  /// Whether the todo is done; becomes `Todo.isCompleted`.
  public var completed: Bool

  /// Creates a DTO; tests and fixtures use this to build wire values directly.
  public init(userId: Int, id: Int, title: String, completed: Bool) {
    self.userId = userId
    self.id = id
    self.title = title
    self.completed = completed
  }
}
