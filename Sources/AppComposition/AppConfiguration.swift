public import Foundation
public import NetworkLayer

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// What the live object graph needs from the outside world: where the API is and how to reach it.
public struct AppConfiguration: Sendable {
  /// The API's base URL; endpoint paths are appended to it, keeping its own path.
  public var baseURL: URL
  /// The session every request goes through. Pass one built from an in-process mount to run
  /// the app against the embedded sample API, or `URLSession.shared` for a real server.
  public var session: URLSession
  /// Receivers of the HTTP client's events (requests, retries, refreshes), with credentials
  /// already redacted; a `ConsoleEventMonitor` prints them.
  public var monitors: [any NetworkEventMonitor]

  /// Creates a configuration.
  public init(baseURL: URL, session: URLSession, monitors: [any NetworkEventMonitor] = []) {
    self.baseURL = baseURL
    self.session = session
    self.monitors = monitors
  }
}
