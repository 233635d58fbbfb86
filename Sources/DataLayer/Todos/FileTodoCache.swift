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
  private let storage: PersistedValue<[Todo]>

  /// Creates the cache on the file at `fileURL` and loads it now.
  ///
  /// `fileURL` must be a file URL; anything else is a programming error and traps.
  ///
  /// - Parameter onFailure: told about every read, decode, write or delete that fails; called
  ///   synchronously by the failing call, holding no lock, so it may read this cache.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    storage = PersistedValue(
      fileURL: fileURL,
      encode: { try JSONEncoder().encode($0.map(StoredTodo.init)) },
      decode: { data in
        try JSONDecoder().decode([StoredTodo].self, from: data)
          .map { (todo: StoredTodo) throws(DomainError) -> Todo in try todo.toDomain() }
      },
      onFailure: onFailure
    )
  }

  public func load() -> [Todo]? { storage.value }

  public func save(_ todos: [Todo]) { storage.set(todos) }

  public func clear() { storage.set(nil) }
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
