public import DomainLayer
import LayeredSupport

/// A ``TodoCache`` in memory only: the list is gone when the process ends. Safe to use from
/// any number of tasks at once.
public final class InMemoryTodoCache: TodoCache {
  private let storage: Locked<[Todo]?>

  /// Creates a cache holding `todos` (`nil`: nothing cached).
  public init(_ todos: [Todo]? = nil) {
    storage = Locked(todos)
  }

  public func load() -> [Todo]? { storage.withLock { $0 } }

  public func save(_ todos: [Todo]) {
    storage.withLock { $0 = todos }
  }

  public func update(_ change: ([Todo]?) -> [Todo]?) {
    storage.withLock { $0 = change($0) }
  }

  public func clear() {
    storage.withLock { $0 = nil }
  }
}
