public import Foundation
public import NetworkLayer

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// What the live object graph needs from the outside world.
public struct AppConfiguration: Sendable {
  /// Where the session's tokens and the todo cache are kept.
  public enum Storage: Sendable {
    /// In memory: gone when the process ends (tests, previews, the showcase).
    case inMemory
    /// In files inside this directory (created with mode 0700 if missing): tokens in
    /// `tokens.json` (mode 0600), the todo cache in `todos.json`.
    case directory(URL)
  }

  /// The API's base URL; endpoint paths are appended to it, keeping its own path.
  public var baseURL: URL
  /// The session every request goes through. Pass one built from an in-process mount to run
  /// the app against the embedded sample API, or an ephemeral one for a real server.
  public var session: URLSession
  /// Receivers of the HTTP client's events (requests, retries, refreshes), with credentials
  /// already redacted; a `ConsoleEventMonitor` prints them.
  public var monitors: [any NetworkEventMonitor]
  /// Where tokens and caches live.
  public var storage: Storage

  /// Creates a configuration.
  public init(
    baseURL: URL,
    session: URLSession,
    monitors: [any NetworkEventMonitor] = [],
    storage: Storage = .inMemory
  ) {
    self.baseURL = baseURL
    self.session = session
    self.monitors = monitors
    self.storage = storage
  }
}
