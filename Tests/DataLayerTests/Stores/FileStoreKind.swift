import DataLayer
import DomainLayer
import Foundation
import NetworkLayer

/// A file-backed store, seen through what every one of them does, so one test covers both.
struct StoreProbe: Sendable {
  let isEmpty: @Sendable () -> Bool
  /// Saves the kind's sample value.
  let saveSample: @Sendable () -> Void
  let holdsSample: @Sendable () -> Bool
  let flush: @Sendable () async -> Void
}

/// The data layer's file-backed stores: its two own, and one of a value of the app's own.
enum FileStoreKind: CaseIterable, Sendable, CustomStringConvertible {
  case tokens
  case todos
  case values

  var fileName: String {
    switch self {
    case .tokens: "tokens.json"
    case .todos: "todos.json"
    case .values: "draft.json"
    }
  }

  var sizeLimit: Int {
    switch self {
    case .tokens: FileTokenStore.maximumFileSize
    case .todos: FileTodoCache.maximumFileSize
    case .values: FileStore<Draft>.defaultMaximumFileSize
    }
  }

  /// A valid file of exactly `size` bytes (JSON padded with spaces), so that a refusal can only
  /// be for its size.
  func validFile(size: Int) throws -> Data {
    let json: Data =
      switch self {
      case .tokens: try JSONEncoder().encode(FileTokenStoreTests.tokens(1))
      case .todos: Data(DamagedTodoFile.validJSON.utf8)
      case .values: try JSONEncoder().encode(Draft.sample)
      }
    return json + Data(repeating: UInt8(ascii: " "), count: size - json.count)
  }

  /// A valid file of modest size.
  func validFile() throws -> Data { try validFile(size: 1_000) }

  func open(_ url: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) -> StoreProbe {
    switch self {
    case .tokens:
      let store = FileTokenStore(fileURL: url, onFailure: onFailure)
      let sample = FileTokenStoreTests.tokens(2)
      return StoreProbe(
        isEmpty: { store.tokens == nil },
        saveSample: { store.save(sample) },
        holdsSample: { store.tokens == sample },
        flush: { await store.flush() }
      )
    case .todos:
      let cache = FileTodoCache(fileURL: url, onFailure: onFailure)
      let sample = [Self.sampleTodo]
      return StoreProbe(
        isEmpty: { cache.load() == nil },
        saveSample: { cache.save(sample) },
        holdsSample: { cache.load() == sample },
        flush: { await cache.flush() }
      )
    case .values:
      let store = FileStore<Draft>(fileURL: url, onFailure: onFailure)
      let sample = Draft(title: "saved", words: 2)
      return StoreProbe(
        isEmpty: { store.value == nil },
        saveSample: { store.save(sample) },
        holdsSample: { store.value == sample },
        flush: { await store.flush() }
      )
    }
  }

  private static let sampleTodo: Todo = {
    guard let todo = try? Todo(id: 9, userID: 1, title: "sample", isCompleted: false) else {
      preconditionFailure("the sample todo is valid")
    }
    return todo
  }()

  var description: String {
    switch self {
    case .tokens: "token store"
    case .todos: "todo cache"
    case .values: "file store"
    }
  }
}

/// What is at `url` itself, without following a link (`nil`: nothing).
func itemType(at url: URL) -> FileAttributeType? {
  let attributes = try? FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
  switch attributes?[.type] {
  case let type as FileAttributeType: return type
  case let name as String: return FileAttributeType(rawValue: name)
  default: return nil
  }
}
