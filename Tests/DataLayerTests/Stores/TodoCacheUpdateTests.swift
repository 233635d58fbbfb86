import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("TodoCache.update", .timeLimit(.minutes(1)))
struct TodoCacheUpdateTests {
  static func todo(_ id: Int) throws -> Todo {
    try Todo(id: id, userID: 1, title: "task \(id)", isCompleted: false)
  }

  @Test("200 concurrent updates of the file cache each add a todo, and the file holds every one")
  func fileCacheLosesNoUpdate() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    let todos = try (1...200).map(Self.todo)

    await withTaskGroup(of: Void.self) { group in
      for todo in todos {
        group.addTask { cache.update { ($0 ?? []) + [todo] } }
      }
    }
    await cache.flush()

    #expect(cache.load()?.count == 200)
    // A copy in another directory is read by a cache of its own, so these are the bytes on disk.
    let copy = directory.file("copy.json")
    try Data(contentsOf: url).write(to: copy)
    #expect(Set(FileTodoCache(fileURL: copy).load() ?? []) == Set(todos))
  }

  @Test("200 concurrent updates of the in-memory cache each add a todo, and none is lost")
  func inMemoryCacheLosesNoUpdate() async throws {
    let cache = InMemoryTodoCache()
    let todos = try (1...200).map(Self.todo)

    await withTaskGroup(of: Void.self) { group in
      for todo in todos {
        group.addTask { cache.update { ($0 ?? []) + [todo] } }
      }
    }

    #expect(Set(cache.load() ?? []) == Set(todos))
  }

  @Test("an update that returns nil clears the cache and deletes the file")
  func updateToNil() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    cache.save([try Self.todo(1)])
    cache.update { _ in nil }
    await cache.flush()
    #expect(cache.load() == nil)
    #expect(!fileExists(at: url))
  }

  @Test(
    "an update that began before a clear is dropped, on disk too, and one that began after it is kept",
    arguments: [true, false])
  func updateSinceAClear(onDisk: Bool) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache: any TodoCache = onDisk ? FileTodoCache(fileURL: url) : InMemoryTodoCache()
    let (first, late, next) = (try Self.todo(1), try Self.todo(2), try Self.todo(3))
    cache.save([first])
    let before = cache.generation

    cache.clear()
    cache.update(unlessClearedSince: before) { ($0 ?? []) + [late] }
    #expect(cache.load() == nil)
    await (cache as? FileTodoCache)?.flush()
    #expect(!fileExists(at: url))

    cache.update(unlessClearedSince: cache.generation) { ($0 ?? []) + [next] }
    #expect(cache.load() == [next])
    await (cache as? FileTodoCache)?.flush()
    #expect(!onDisk || FileTodoCache(fileURL: url).load() == [next])
  }

  /// A cache written before `generation` was part of the protocol: only the four older methods.
  final class OlderCache: TodoCache {
    let todos = Locked<[Todo]?>(nil)
    func load() -> [Todo]? { todos.withLock { $0 } }
    func save(_ todos: [Todo]) { self.todos.withLock { $0 = todos } }
    func update(_ change: ([Todo]?) -> [Todo]?) { todos.withLock { $0 = change($0) } }
    func clear() { todos.withLock { $0 = nil } }
  }

  @Test("a cache of the app's own that does not count its clears still compiles and applies every update")
  func olderCacheKeepsWorking() throws {
    let (cache, todo) = (OlderCache(), try Self.todo(1))
    let before = cache.generation
    cache.clear()
    cache.update(unlessClearedSince: before) { ($0 ?? []) + [todo] }
    #expect(cache.load() == [todo])
  }

  @Test("todos created at once through the repository all reach the cache file")
  func concurrentCreatesThroughTheRepository() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let url = directory.file("todos.json")
      let cache = FileTodoCache(fileURL: url)
      let tokens = InMemoryTokenStore()
      let plain = URLSessionHTTPClient(baseURL: connection.baseURL, transport: connection.transport)
      let api = URLSessionHTTPClient(
        baseURL: connection.baseURL,
        transport: connection.transport,
        interceptors: [AuthInterceptor(store: tokens, refresher: RemoteTokenRefresher(client: plain))]
      )
      let sessions = RemoteSessionRepository(
        client: plain, tokenStore: tokens, sessionEvents: AsyncStream { _ in })
      let repository = RemoteTodoRepository(client: api, cache: cache)
      _ = try await Result.of { () async throws(DomainError) in
        try await sessions.logIn(username: "demo", password: "correct-horse-battery-staple")
      }.get()
      _ = try await Result.of { () async throws(DomainError) in try await repository.todos() }.get()

      let created = await withTaskGroup(of: Int?.self) { group in
        for number in 1...20 {
          group.addTask {
            try? await Result.of { () async throws(DomainError) in
              try await repository.createTodo(title: "created \(number)")
            }.get().id
          }
        }
        return await group.reduce(into: Set<Int>()) { ids, id in
          if let id { ids.insert(id) }
        }
      }
      await cache.flush()

      #expect(created.count == 20)
      let onDisk = Set((FileTodoCache(fileURL: url).load() ?? []).map(\.id))
      #expect(onDisk.count == 220)
      #expect(created.isSubset(of: onDisk))
    }
  }
}
