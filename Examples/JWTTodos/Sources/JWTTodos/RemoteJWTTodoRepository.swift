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
  private static let todos = CollectionEndpoints<TodoDTO>(path: ["api", "todos"], endsWithSlash: true)

  /// Creates the repository on the container's authenticated client.
  public init(client: any HTTPClient, cache: any TodoCache = InMemoryTodoCache()) {
    self.client = client
    self.cache = cache
  }

  /// Every todo, page after page, each once, cached unless the cache was cleared (a sign-out)
  /// meanwhile. A page that brings only todos already read ends the loop: a server that ignores
  /// the page asked for would otherwise answer the first one forever.
  public func todos() async throws(DomainError) -> [Todo] {
    let generation = cache.generation
    var todos: [Todo] = []
    var read = Set<Int>()
    var next: PageToken? = nil
    repeat {
      let page = try await todoPage(after: next)
      let unread = page.items.filter { read.insert($0.id).inserted }
      todos += unread
      next = !page.items.isEmpty && unread.isEmpty ? nil : page.next
    } while next != nil
    cache.update(unlessClearedSince: generation) { _ in todos }
    return todos
  }

  /// The list of the last ``todos()``.
  public func cachedTodos() -> [Todo]? {
    cache.load()
  }

  /// One page: the first for `nil`, else the one the token names.
  public func todoPage(after token: PageToken?) async throws(DomainError) -> ListPage<Todo> {
    try await client.page(after: token, first: Self.todos.list.paged(.results()))
  }

  /// `POST /api/todos/`; a refused title arrives as `DomainError.rejected` with its field error.
  public func createTodo(title: String) async throws(DomainError) -> Todo {
    try await client.sendTranslatingErrors(Self.todos.create(NewTodo(title: title))).toDomain()
  }

  /// `PATCH /api/todos/{id}/`; someone else's todo is `DomainError.forbidden`.
  public func setCompleted(_ isCompleted: Bool, forTodoWithID id: Int) async throws(DomainError) -> Todo {
    try await client.sendTranslatingErrors(Self.todos.update(id: id, Completion(completed: isCompleted)))
      .toDomain()
  }
}
