public import DataLayer
public import DomainLayer
public import NetworkLayer

/// A comment as the API sends it.
public struct TodoCommentDTO: Codable, Sendable, Hashable, DomainConvertible {
  public var id: Int
  public var todoId: Int
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

  public func comments(onTodo todoID: Int) async throws(DomainError) -> [TodoComment] {
    try await client.sendTranslatingErrors(Self.endpoints(todoID).list).toDomain()
  }

  public func addComment(_ body: String, toTodo todoID: Int) async throws(DomainError) -> TodoComment {
    try await client.sendTranslatingErrors(Self.endpoints(todoID).create(NewComment(body: body))).toDomain()
  }

  private static func endpoints(_ todoID: Int) -> CollectionEndpoints<TodoCommentDTO> {
    CollectionEndpoints(path: ["todos", String(todoID), "comments"])
  }
}
