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
  /// What carries every request: a `URLSessionTransport` for a real server, or the embedded
  /// sample API's in-process transport.
  public var transport: any HTTPTransport
  /// Receivers of the HTTP client's events (requests, retries, refreshes), with credentials
  /// already redacted; a `ConsoleEventMonitor` prints them.
  public var monitors: [any NetworkEventMonitor]
  /// Where tokens and caches live.
  public var storage: Storage

  /// Creates a configuration whose requests `transport` carries.
  public init(
    baseURL: URL,
    transport: any HTTPTransport,
    monitors: [any NetworkEventMonitor] = [],
    storage: Storage = .inMemory
  ) {
    self.baseURL = baseURL
    self.transport = transport
    self.monitors = monitors
    self.storage = storage
  }

  /// Creates a configuration whose requests go out with `session`'s configuration.
  public init(
    baseURL: URL,
    session: URLSession,
    monitors: [any NetworkEventMonitor] = [],
    storage: Storage = .inMemory
  ) {
    self.init(
      baseURL: baseURL, transport: URLSessionTransport(session: session), monitors: monitors, storage: storage
    )
  }
}
