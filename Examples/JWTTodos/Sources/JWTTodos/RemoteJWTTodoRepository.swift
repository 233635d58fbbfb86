public import DataLayer
public import DomainLayer
import Foundation
public import NetworkLayer

/// The todos of the backend: `/api/todos/`, paged as `{count, next, previous, results}` with an
/// absolute `next`, in the snake-case shape `{id, title, completed, owner_id}`.
public struct RemoteJWTTodoRepository: TodoRepository {
  private struct TodoDTO: Codable, Sendable, DomainConvertible {
    var id: Int
    var title: String
    var completed: Bool
    var ownerID: Int

    enum CodingKeys: String, CodingKey {
      case id, title, completed
      case ownerID = "owner_id"
    }

    func toDomain() throws(DomainError) -> Todo {
      try Todo(id: id, userID: ownerID, title: title, isCompleted: completed)
    }
  }

  private struct NewTodo: Encodable, Sendable {
    var title: String
  }

  private struct Completion: Encodable, Sendable {
    var completed: Bool
  }

  private let client: any HTTPClient
  private let cache: any TodoCache
  private static let list = Endpoint<[TodoDTO]>(path: ["api", "todos"], requiresAuthentication: true)
    .endingWithSlash()

  /// Creates the repository on the container's authenticated client.
  public init(client: any HTTPClient, cache: any TodoCache = InMemoryTodoCache()) {
    self.client = client
    self.cache = cache
  }

  /// Every todo, page after page.
  public func todos() async throws(DomainError) -> [Todo] {
    var todos: [Todo] = []
    var next: PageToken? = nil
    repeat {
      let page = try await todoPage(after: next)
      todos += page.items
      next = page.next
    } while next != nil
    cache.save(todos)
    return todos
  }

  /// The list of the last ``todos()``.
  public func cachedTodos() -> [Todo]? {
    cache.load()
  }

  /// One page: the first for `nil`, else the one the token names.
  public func todoPage(after token: PageToken?) async throws(DomainError) -> ListPage<Todo> {
    try await client.page(after: token, first: Self.list.paged(.results()))
  }

  /// `POST /api/todos/`; a refused title arrives as `DomainError.rejected` with its field error.
  public func createTodo(title: String) async throws(DomainError) -> Todo {
    let endpoint = Endpoint<TodoDTO>(
      method: .post, path: ["api", "todos"], body: .json(NewTodo(title: title)), requiresAuthentication: true)
    return try await client.sendTranslatingErrors(endpoint.endingWithSlash()).toDomain()
  }

  /// `PATCH /api/todos/{id}/`; someone else's todo is `DomainError.forbidden`.
  public func setCompleted(_ isCompleted: Bool, forTodoWithID id: Int) async throws(DomainError) -> Todo {
    let endpoint = Endpoint<TodoDTO>(
      method: .patch, path: ["api", "todos", String(id)], body: .json(Completion(completed: isCompleted)),
      requiresAuthentication: true, isIdempotent: true)
    return try await client.sendTranslatingErrors(endpoint.endingWithSlash()).toDomain()
  }
}
