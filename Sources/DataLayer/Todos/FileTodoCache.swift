public import DomainLayer
public import Foundation

/// A ``TodoCache`` that keeps the list in a JSON file, so it survives a relaunch.
///
/// Like every store on disk here, it serves reads from memory, writes the file behind the caller
/// and atomically, with mode 0600, and refuses a link, a FIFO or a file over ``maximumFileSize``;
/// "Stores on disk" in the architecture article has the rules. ``update(_:)`` reads and changes
/// the list in one step, so concurrent updates never lose one another; ``flush()`` waits until
/// every earlier change is on disk.
/// - A file that is refused, unreadable or corrupt, or holds a todo that breaks one of `Todo`'s
///   invariants, empties the cache (`nil`) and is deleted: a partial list is never served as the
///   whole one.
/// - A write that fails keeps the list in memory and reports a ``StorageFailure``, which carries
///   no todo, to `onFailure`.
///
/// The file's format is private to this type: `Todo` itself knows nothing of persistence.
public final class FileTodoCache: TodoCache {
  /// The largest cache file read (8 MiB, tens of thousands of todos): a larger one is refused as
  /// corrupt, and a list whose file would be larger is kept in memory only (reported as a
  /// `write` failure, `EFBIG`, and the older file is deleted).
  public static let maximumFileSize = 8 * 1024 * 1024

  private let storage: PersistedValue<[Todo]>

  /// Creates the cache on the file at `fileURL` (a file URL, or it traps) and loads it now.
  /// `onFailure` hears every refusal, read, decode, write or delete that fails, holding no lock.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    storage = PersistedValue(
      fileURL: fileURL,
      sizeLimit: Self.maximumFileSize,
      encode: { try JSONEncoder().encode($0.map(StoredTodo.init)) },
      decode: { data in
        try JSONDecoder().decode([StoredTodo].self, from: data)
          .map { (todo: StoredTodo) throws(DomainError) -> Todo in try todo.toDomain() }
      },
      onFailure: onFailure
    )
  }

  /// The list last saved or updated, or `nil` when nothing is cached; never waits for the disk.
  public func load() -> [Todo]? { storage.value }

  /// Replaces the cached list at once; the file follows behind.
  public func save(_ todos: [Todo]) { storage.set(todos) }

  /// Replaces the cached list with what `change` makes of it (`nil`: nothing cached) in one step,
  /// so concurrent updates never lose one another. `change` runs under the lock: it must not use
  /// the cache.
  public func update(_ change: ([Todo]?) -> [Todo]?) {
    storage.update { $0 = change($0) }
  }

  /// Forgets the cached list at once; the file is deleted behind.
  public func clear() { storage.clear() }

  /// How many times the cache has been cleared.
  public var generation: Int { storage.generation }

  /// Does what ``update(_:)`` does, unless the cache was cleared after `generation` was read.
  public func update(unlessClearedSince generation: Int, _ change: ([Todo]?) -> [Todo]?) {
    storage.update(unlessClearedSince: generation) { $0 = change($0) }
  }

  /// Returns once every change made before the call is on disk, or has been reported as a
  /// failure.
  public func flush() async { await storage.flush() }
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
