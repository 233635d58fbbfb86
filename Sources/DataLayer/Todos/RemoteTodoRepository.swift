public import DomainLayer
public import NetworkLayer

/// A `TodoRepository` backed by the HTTP API, with a ``TodoCache`` for "cached, then fresh".
///
/// It sends the todo endpoints through an `HTTPClient`, maps each DTO to a `Todo`, and turns
/// every `NetworkError` into a `DomainError`. One malformed todo fails the whole load with
/// `DomainError.invalidData(reason:)`: showing a partial list as if it were complete would be a
/// quieter, worse failure. Successful loads and changes are written through to a cached list,
/// unless the person signed out (the cache was cleared) while the request was on its way.
///
/// A load's list can arrive after the answers to creates and toggles that the server stored after
/// reading it. This repository's answers that came while a load was on its way are laid over its
/// list, for its caller and for the cache: a toggled todo keeps the completion its toggle
/// answered, and a created one is on the list (`Internal/Cache/ChangesDuringLoads.swift`).
public struct RemoteTodoRepository: TodoRepository {
  private let client: any HTTPClient
  private let cache: any TodoCache
  private let changesDuringLoads = ChangesDuringLoads()

  /// Creates the repository on top of a client for the API and a cache.
  public init(client: any HTTPClient, cache: any TodoCache = InMemoryTodoCache()) {
    self.client = client
    self.cache = cache
  }

  /// Fetches every todo of the current user and replaces the cached list with it.
  ///
  /// - Returns: the todos in the server's order, all valid.
  /// - Throws: the `DomainError` for the network failure, or `DomainError.invalidData(reason:)`
  ///   when any todo breaks an invariant; the cache is then left as it was.
  public func todos() async throws(DomainError) -> [Todo] {
    let (generation, load) = (cache.generation, changesDuringLoads.begin())
    let list: [Todo]
    do throws(DomainError) {
      list = try await client.sendTranslatingErrors(TodoEndpoints.list).toDomain()
    } catch {
      changesDuringLoads.end(load)
      throw error
    }
    return changesDuringLoads.end(load, with: list) { todos in
      cache.update(unlessClearedSince: generation) { _ in todos }
    }
  }

  /// One page of the todos, in the server's order, twenty at a time. Pages are not cached: the
  /// cache holds the whole list that ``todos()`` loads.
  ///
  /// - Parameter token: `nil` for the first page, else the `next` of the page before.
  /// - Returns: the page's todos, all valid, and the token of the next page, if there is one.
  /// - Throws: the `DomainError` for the network failure, or `DomainError.invalidData(reason:)`
  ///   when any todo breaks an invariant, or the token is not one of this repository's.
  public func todoPage(after token: PageToken?) async throws(DomainError) -> ListPage<Todo> {
    try await client.page(after: token, first: TodoEndpoints.firstPage(size: 20))
  }

  /// The todos whose title contains `query`, as the server finds them; not cached, since the
  /// cache holds the whole list.
  public func todos(matching query: String) async throws(DomainError) -> [Todo] {
    try await client.sendTranslatingErrors(TodoEndpoints.search(query)).toDomain()
  }

  /// The cached list, read without touching the network.
  ///
  /// - Returns: the list of the last successful load or change, or `nil` when nothing is cached.
  public func cachedTodos() -> [Todo]? {
    cache.load()
  }

  /// Creates a todo at the server and adds it to the cached list, unless a load has already put
  /// it there, without losing a concurrent change of the cache. With nothing cached, nothing is:
  /// a list of only the new todo would not be the person's list.
  ///
  /// - Parameter title: the title to store, as the use case checked it.
  /// - Returns: the todo as the server stored it.
  /// - Throws: the `DomainError` for the network failure, or `DomainError.invalidData(reason:)`
  ///   when the server's todo breaks an invariant; the cache is then left as it was.
  public func createTodo(title: String) async throws(DomainError) -> Todo {
    let (create, generation) = (TodoEndpoints.create(title: title), cache.generation)
    let todo = try await client.sendTranslatingErrors(create, fieldNames: TodoEndpoints.fieldNames).toDomain()
    changesDuringLoads.record(.created(todo)) {
      cache.update(unlessClearedSince: generation) { cached in cached?.applying([.created(todo)]) }
    }
    return todo
  }

  /// Sets a todo's completion at the server and replaces it in the cached list, or adds it to a
  /// cached list that lacks it.
  ///
  /// - Parameters:
  ///   - isCompleted: the completion to store.
  ///   - id: the todo's id.
  /// - Returns: the todo as the server stored it.
  /// - Throws: the `DomainError` for the network failure, or `DomainError.invalidData(reason:)`
  ///   when the server's todo breaks an invariant; the cache is then left as it was.
  public func setCompleted(_ isCompleted: Bool, forTodoWithID id: Int) async throws(DomainError) -> Todo {
    let generation = cache.generation
    let todo = try await client.sendTranslatingErrors(TodoEndpoints.setCompleted(isCompleted, id: id))
      .toDomain()
    changesDuringLoads.record(.changed(todo)) {
      cache.update(unlessClearedSince: generation) { cached in cached?.applying([.changed(todo)]) }
    }
    return todo
  }
}
