/// Where todos come from and where changes to them go: the domain names the role, the data layer
/// supplies the mechanism. Implementations report every failure as a ``DomainError`` and stop
/// with ``DomainError/cancelled`` when their task is cancelled.
public protocol TodoRepository: Sendable {
  /// All todos visible to the current user, ordered by id, fetched fresh. A successful fetch
  /// also replaces what ``cachedTodos()`` returns.
  func todos() async throws(DomainError) -> [Todo]
  /// The todos of the last successful fetch, if any are kept; never touches the network.
  func cachedTodos() -> [Todo]?
  /// Creates a todo with `title` and returns it as the server stored it.
  func createTodo(title: String) async throws(DomainError) -> Todo
  /// Marks a todo done or not done and returns it as the server stored it.
  func setCompleted(_ isCompleted: Bool, forTodoWithID id: Int) async throws(DomainError) -> Todo
  /// The first page of the todos when `token` is `nil`, else the page `token` points to.
  func todoPage(after token: PageToken?) async throws(DomainError) -> ListPage<Todo>
  /// The todos whose title contains `query`, ignoring case, ordered by id, fetched fresh.
  func todos(matching query: String) async throws(DomainError) -> [Todo]
}

extension TodoRepository {
  /// For a repository that does not page: every todo, on one last page.
  public func todoPage(after token: PageToken?) async throws(DomainError) -> ListPage<Todo> {
    ListPage(items: try await todos(), next: nil)
  }

  /// For a repository whose backend cannot search: every todo, filtered here.
  public func todos(matching query: String) async throws(DomainError) -> [Todo] {
    let needle = query.lowercased()
    return try await todos().filter { $0.title.lowercased().contains(needle) }
  }
}
