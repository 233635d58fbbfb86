public import DomainLayer
public import Foundation

/// A ``TodoCache`` that keeps the list in a JSON file, so it survives a relaunch.
///
/// - Reads are served from an in-memory copy; the file is read once, in the initialiser.
/// - Each ``save(_:)`` replaces the whole file atomically (a new file, synced, renamed over the
///   old one, mode 0600, in a directory created with mode 0700 if missing), so the file is
///   always a complete list, never a partial write. ``clear()`` deletes the file.
/// - A file that cannot be read or decoded, or holds a todo that breaks one of ``Todo``'s
///   invariants, makes the whole cache empty (`nil`) and is deleted, so the next launch starts
///   clean; it never traps. A partial list is not served as if it were the whole one.
/// - A save that cannot be written keeps the list in memory for this process and reports a
///   ``StorageFailure`` (which carries no todo) to `onFailure`.
/// - Safe to use from any number of tasks at once.
///
/// The file's format is private to this type: `Todo` itself knows nothing of persistence.
public final class FileTodoCache: TodoCache {
  private struct State {
    var todos: [Todo]?
    // Handed out with each change, so the file never ends older than `todos`.
    var generation: UInt64 = 0
  }

  private let file: AtomicFile
  private let state: Locked<State>
  private let onFailure: @Sendable (StorageFailure) -> Void

  /// Creates the cache on the file at `fileURL` and loads it now.
  ///
  /// `fileURL` must be a file URL; anything else is a programming error and traps.
  ///
  /// - Parameter onFailure: told about every read, decode, write or delete that fails; called
  ///   synchronously by the failing call, holding no lock, so it may read this cache.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    file = AtomicFile(url: fileURL)
    self.onFailure = onFailure
    state = Locked(State(todos: Self.loadTodos(from: file, onFailure: onFailure)))
  }

  public func load() -> [Todo]? { state.withLock { $0.todos } }

  public func save(_ todos: [Todo]) {
    let generation = state.withLock { state in
      state.todos = todos
      state.generation += 1
      return state.generation
    }
    // Encoding and writing happen outside the lock, so reads never wait for the disk.
    do throws(StorageFailure) {
      try file.replace(with: Self.encode(todos, path: file.path), generation: generation)
    } catch {
      onFailure(error)
    }
  }

  public func clear() {
    let generation = state.withLock { state in
      state.todos = nil
      state.generation += 1
      return state.generation
    }
    do throws(StorageFailure) {
      try file.replace(with: nil, generation: generation)
    } catch {
      onFailure(error)
    }
  }

  private static func encode(_ todos: [Todo], path: String) throws(StorageFailure) -> Data {
    do {
      return try JSONEncoder().encode(todos.map(StoredTodo.init))
    } catch {
      throw StorageFailure(.encode, path: path)
    }
  }

  private static func loadTodos(
    from file: AtomicFile, onFailure: @Sendable (StorageFailure) -> Void
  ) -> [Todo]? {
    do throws(StorageFailure) {
      guard let data = try file.contents() else { return nil }
      do {
        let stored = try JSONDecoder().decode([StoredTodo].self, from: data)
        return try stored.map { (todo: StoredTodo) throws(DomainError) -> Todo in try todo.toDomain() }
      } catch {
        throw StorageFailure(.decode, path: file.path)
      }
    } catch {
      onFailure(error)
    }
    // Whatever is in the file will never be read: delete it so the next launch starts clean.
    do throws(StorageFailure) {
      try file.discard()
    } catch {
      onFailure(error)
    }
    return nil
  }
}

/// How a todo is written in the cache file: a plain mirror of ``Todo``, which stays free of
/// persistence concerns. Decoding goes back through `Todo`'s initialiser, so a stored value
/// that breaks an invariant is rejected like one from the server.
private struct StoredTodo: Codable {
  var id: Int
  var userID: Int
  var title: String
  var isCompleted: Bool

  init(_ todo: Todo) {
    id = todo.id
    userID = todo.userID
    title = todo.title
    isCompleted = todo.isCompleted
  }

  func toDomain() throws(DomainError) -> Todo {
    try Todo(id: id, userID: userID, title: title, isCompleted: isCompleted)
  }
}
