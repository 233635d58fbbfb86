public import Foundation

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

  /// Creates a configuration.
  public init(baseURL: URL, session: URLSession) {
    self.baseURL = baseURL
    self.session = session
  }
}
