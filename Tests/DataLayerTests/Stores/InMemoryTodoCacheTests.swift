import DataLayer
import DomainLayer
import Testing

@Suite("InMemoryTodoCache", .timeLimit(.minutes(1)))
struct InMemoryTodoCacheTests {
  @Test("a new cache holds what it was given, or nothing")
  func initialValue() throws {
    let todos = [try Todo(id: 1, userID: 1, title: "seeded", isCompleted: false)]
    #expect(InMemoryTodoCache().load() == nil)
    #expect(InMemoryTodoCache(todos).load() == todos)
  }

  @Test("save replaces the list, an empty list included, and clear forgets it")
  func saveAndClear() throws {
    let cache = InMemoryTodoCache()
    let todos = [try Todo(id: 2, userID: 1, title: "saved", isCompleted: true)]
    cache.save(todos)
    #expect(cache.load() == todos)
    cache.save([])
    #expect(cache.load() == [])
    cache.clear()
    #expect(cache.load() == nil)
  }

  @Test("saves, clears and loads from many tasks at once are safe and end with a list that was saved")
  func concurrentUse() async throws {
    let cache = InMemoryTodoCache()
    let lists = try (1...100).map { [try Todo(id: $0, userID: 1, title: "task \($0)", isCompleted: false)] }
    await withTaskGroup(of: Void.self) { group in
      for todos in lists {
        group.addTask {
          cache.save(todos)
          _ = cache.load()
        }
      }
    }
    #expect(lists.contains(try #require(cache.load())))
  }
}
