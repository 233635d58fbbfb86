public import DomainLayer
import LayeredSupport

/// A ``TodoCache`` in memory only: the list is gone when the process ends. Safe to use from
/// any number of tasks at once.
public final class InMemoryTodoCache: TodoCache {
  private let storage: Locked<(todos: [Todo]?, generation: Int)>

  /// Creates a cache holding `todos` (`nil`: nothing cached).
  public init(_ todos: [Todo]? = nil) {
    storage = Locked((todos, 0))
  }

  /// The list last saved or updated, or `nil` when nothing is cached.
  public func load() -> [Todo]? { storage.withLock { $0.todos } }

  /// Replaces the cached list; every later read, from any task, sees it.
  ///
  /// - Parameter todos: the list to keep.
  public func save(_ todos: [Todo]) {
    storage.withLock { $0.todos = todos }
  }

  /// Replaces the cached list with what `change` makes of it, in one step, so concurrent updates
  /// never lose one another.
  ///
  /// - Parameter change: makes the new list (`nil`: nothing cached) from the current one. It runs
  ///   while the cache is locked, so it must not use the cache.
  public func update(_ change: ([Todo]?) -> [Todo]?) {
    storage.withLock { $0.todos = change($0.todos) }
  }

  /// Forgets the cached list; every later read sees `nil`.
  public func clear() {
    storage.withLock { $0 = (nil, $0.generation + 1) }
  }

  /// How many times the cache has been cleared.
  public var generation: Int { storage.withLock { $0.generation } }

  /// Does what ``update(_:)`` does, unless the cache was cleared after `generation` was read.
  public func update(unlessClearedSince generation: Int, _ change: ([Todo]?) -> [Todo]?) {
    storage.withLock { if $0.generation == generation { $0.todos = change($0.todos) } }
  }
}
