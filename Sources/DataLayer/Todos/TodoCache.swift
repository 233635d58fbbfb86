public import DomainLayer

/// Keeps the last todo list that was loaded, so a screen can show it at once (or offline)
/// while a fresh one is fetched.
///
/// Methods are synchronous for the same reason as `TokenStore`'s: a caller can look at the
/// cache and decide (show it, fetch, replace it) in one step, with no suspension point in which
/// another caller could change it, and any code can call them, whatever actor it runs on.
/// Implementations keep them fast: an in-memory copy in front of any storage.
///
/// The cache is an optimisation, so none of its methods fails: a value that cannot be stored is
/// still served from memory, and stored data that cannot be read is a cache miss.
public protocol TodoCache: Sendable {
  /// The cached list, or `nil` when nothing is cached. An empty list is a cached answer: the
  /// person has no todos.
  func load() -> [Todo]?
  /// Replaces the cached list.
  func save(_ todos: [Todo])
  /// Replaces the cached list with what `change` makes of it (`nil`: nothing cached), in one
  /// step: no other change can come between the read and the write, so concurrent updates never
  /// lose one another. `change` runs while the cache is locked, so it must not use the cache.
  func update(_ change: ([Todo]?) -> [Todo]?)
  /// Forgets the cached list (for example when the person signs out).
  func clear()
  /// How many times the cache has been cleared. Read as a request begins, it lets
  /// ``update(unlessClearedSince:_:)`` drop that request's answer after a sign-out.
  var generation: Int { get }
  /// Does what ``update(_:)`` does, unless the cache was cleared after `generation` was read:
  /// an answer that arrives after the person signed out brings none of their data back.
  func update(unlessClearedSince generation: Int, _ change: ([Todo]?) -> [Todo]?)
}

extension TodoCache {
  /// Always 0 for a cache of the app's own that does not count its clears.
  public var generation: Int { 0 }

  /// For a cache of the app's own that does not count its clears: ``update(_:)``, so a write
  /// that began before a sign-out still lands. Count clears to drop it.
  public func update(unlessClearedSince generation: Int, _ change: ([Todo]?) -> [Todo]?) {
    update(change)
  }
}
