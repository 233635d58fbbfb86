import DataLayer
import DomainLayer
import Foundation
import Testing

@Suite("FileTodoCache", .timeLimit(.minutes(1)))
struct FileTodoCacheTests {
  static func todos(_ count: Int, version: Int = 0, padding: Int = 0) throws -> [Todo] {
    let pad = String(repeating: "-", count: padding)
    return try (0..<count).map { index in
      let id = index + 1
      return try Todo(
        id: id, userID: 1 + id % 3, title: "task \(id) v\(version)\(pad)", isCompleted: id.isMultiple(of: 2))
    }
  }

  @Test("a missing file is an empty cache, and is not a failure")
  func missingFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recorder = FailureRecorder()
    let cache = FileTodoCache(fileURL: directory.file("todos.json"), onFailure: recorder.report)
    #expect(cache.load() == nil)
    #expect(recorder.failures.isEmpty)
  }

  @Test("a saved list is served at once, in order")
  func roundTrip() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cache = FileTodoCache(fileURL: directory.file("todos.json"))
    let todos = try Self.todos(5)
    cache.save(todos)
    #expect(cache.load() == todos)
    await cache.flush()
  }

  @Test("a saved list survives a new cache on the same file")
  func persistence() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let todos = try Self.todos(20)
    FileTodoCache(fileURL: url).save(todos)
    #expect(FileTodoCache(fileURL: url).load() == todos)
  }

  @Test("an empty list is remembered as an answer, not as a miss")
  func emptyList() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    FileTodoCache(fileURL: url).save([])
    #expect(FileTodoCache(fileURL: url).load() == [])
  }

  @Test("a file written in the cache's format loads, so the damaged cases below fail for their damage")
  func handWrittenFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    try Data(DamagedTodoFile.validJSON.utf8).write(to: url)
    #expect(
      FileTodoCache(fileURL: url).load() == [try Todo(id: 1, userID: 2, title: "ok", isCompleted: true)])
  }

  @Test("the saved file can be read and written by its owner only")
  func ownerOnlyFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    cache.save(try Self.todos(1))
    await cache.flush()
    #expect(try posixPermissions(of: url) == 0o600)
  }

  @Test("concurrent saves from 100 tasks always leave a whole file, the latest list, no temporary files")
  func concurrentSaves() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    // Long lists make each write span many pages, so a reader would catch a file in the middle of
    // being written if there ever were one.
    let saved = try (1...100).map { try Self.todos(1_000 + $0, version: $0, padding: 200) }
    let snapshots = await FileSnapshots.reading(
      url, during: saved.map { todos in { cache.save(todos) } }, settle: { await cache.flush() })

    #expect(!snapshots.vanished, "the file went missing between two saves")
    // The format is private to the cache, so each content is checked by opening a copy of it.
    // Lists are compared by their index in `saved`, so a failure prints a number, not 1,000 todos.
    let probe = directory.file("probe.json")
    for contents in snapshots.contents {
      try contents.write(to: probe)
      let index = FileTodoCache(fileURL: probe).load().flatMap(saved.firstIndex(of:))
      #expect(index != nil, "a reader saw a partial or corrupt file")
    }
    try? FileManager.default.removeItem(at: probe)
    let final = try #require(cache.load().flatMap(saved.firstIndex(of:)))
    let reloaded = FileTodoCache(fileURL: url).load().flatMap(saved.firstIndex(of:))
    #expect(reloaded == final, "the file is older than the memory")
    #expect(try directory.entries() == ["todos.json"])
  }

  @Test("saves, clears and loads from many tasks at once leave memory and file in agreement")
  func concurrentMixedUse() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    let lists = try (1...100).map { try Self.todos($0 % 5, version: $0) }
    await withTaskGroup(of: Void.self) { group in
      for (number, todos) in zip(1..., lists) {
        group.addTask {
          switch number % 3 {
          case 0: cache.clear()
          case 1: cache.save(todos)
          default: _ = cache.load()
          }
        }
      }
    }
    await cache.flush()
    #expect(FileTodoCache(fileURL: url).load() == cache.load())
    #expect(try directory.entries().allSatisfy { $0 == "todos.json" })
  }

  @Test(
    "an unreadable file, or one todo that breaks an invariant, empties the cache and is deleted",
    arguments: DamagedTodoFile.allCases)
  func damagedFile(damage: DamagedTodoFile) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    try damage.contents.write(to: url)
    let recorder = FailureRecorder()

    let cache = FileTodoCache(fileURL: url, onFailure: recorder.report)

    #expect(cache.load() == nil)
    #expect(!fileExists(at: url))
    #expect(recorder.failures.map(\.operation) == [.decode])
  }

  @Test("clear empties the cache and deletes the file")
  func clearDeletesFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("todos.json")
    let cache = FileTodoCache(fileURL: url)
    cache.save(try Self.todos(3))
    await cache.flush()
    #expect(fileExists(at: url))
    cache.clear()
    #expect(cache.load() == nil)
    await cache.flush()
    #expect(!fileExists(at: url))
    #expect(FileTodoCache(fileURL: url).load() == nil)
  }

  @Test("a save that cannot be written keeps the list in memory and reports the failure")
  func unwritableDirectory() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let blocker = directory.file("not-a-directory")
    try Data("plain file".utf8).write(to: blocker)
    let recorder = FailureRecorder()
    let cache = FileTodoCache(
      fileURL: blocker.appendingPathComponent("todos.json"), onFailure: recorder.report)
    let todos = try Self.todos(4)

    cache.save(todos)

    #expect(cache.load() == todos)
    await cache.flush()
    #expect(recorder.failures.map(\.operation) == [.write])
    #expect(recorder.failures.first?.errorNumber == ENOTDIR)
  }
}

/// Contents that are not a usable cache file, each of which must mean an empty cache.
enum DamagedTodoFile: CaseIterable, Sendable, CustomTestStringConvertible {
  case noise
  case empty
  case truncatedJSON
  case otherShape
  case blankTitle
  case nonPositiveID
  case oneInvalidAmongValid

  /// A file in the cache's format, holding one valid todo.
  static let validJSON = #"[{"id":1,"userID":2,"title":"ok","isCompleted":true}]"#

  var contents: Data {
    switch self {
    case .noise:
      noiseBytes(count: 512)
    case .empty:
      Data()
    case .truncatedJSON:
      Data(Self.validJSON.dropLast(9).utf8)
    case .otherShape:
      Data(#"{"accessToken":"a","refreshToken":"r"}"#.utf8)
    case .blankTitle:
      Data(#"[{"id":1,"userID":2,"title":"  \n","isCompleted":true}]"#.utf8)
    case .nonPositiveID:
      Data(#"[{"id":0,"userID":2,"title":"ok","isCompleted":true}]"#.utf8)
    case .oneInvalidAmongValid:
      Data(
        (#"[{"id":1,"userID":2,"title":"ok","isCompleted":true},"#
          + #"{"id":2,"userID":2,"title":"","isCompleted":false}]"#).utf8)
    }
  }

  var testDescription: String {
    switch self {
    case .noise: "random bytes"
    case .empty: "an empty file"
    case .truncatedJSON: "truncated JSON"
    case .otherShape: "valid JSON of another shape"
    case .blankTitle: "a todo with a blank title"
    case .nonPositiveID: "a todo with id 0"
    case .oneInvalidAmongValid: "one invalid todo after a valid one"
    }
  }
}
