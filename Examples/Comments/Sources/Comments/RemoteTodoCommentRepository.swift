public import DataLayer
public import DomainLayer
public import NetworkLayer

/// A comment as the API sends it.
public struct TodoCommentDTO: Codable, Sendable, Hashable, DomainConvertible {
  /// The server's id for the comment.
  public var id: Int
  /// The todo it belongs to, `todoId` on the wire.
  public var todoId: Int
  /// What was said; ``toDomain()`` rejects a blank one.
  public var body: String

  /// The domain value, or `DomainError.invalidData(reason:)`.
  public func toDomain() throws(DomainError) -> TodoComment {
    try TodoComment(id: id, todoID: todoId, body: body)
  }
}

/// A ``TodoCommentRepository`` over `/todos/{id}/comments`, sent through the client it is given:
/// on the container's `authenticatedClient`, so it signs with the app's one session.
public struct RemoteTodoCommentRepository: TodoCommentRepository {
  private struct NewComment: Encodable, Sendable {
    var body: String
  }

  private let client: any HTTPClient

  /// Creates the repository on `client`.
  public init(client: any HTTPClient) {
    self.client = client
  }

  /// `GET /todos/{id}/comments`, every comment mapped.
  public func comments(onTodo todoID: Int) async throws(DomainError) -> [TodoComment] {
    try await client.sendTranslatingErrors(Self.endpoints(todoID).list).toDomain()
  }

  /// `POST /todos/{id}/comments`, sent once: never retried automatically.
  public func addComment(_ body: String, toTodo todoID: Int) async throws(DomainError) -> TodoComment {
    try await client.sendTranslatingErrors(Self.endpoints(todoID).create(NewComment(body: body))).toDomain()
  }

  private static func endpoints(_ todoID: Int) -> CollectionEndpoints<TodoCommentDTO> {
    CollectionEndpoints(path: ["todos", String(todoID), "comments"])
  }
}
