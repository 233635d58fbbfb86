public import DataLayer
public import Foundation
public import NetworkLayer

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// What the live object graph needs from the outside world.
///
/// The initialisers take what every app must say; the rest has the sample app's defaults and is
/// set afterwards, for a backend of the app's own:
///
/// ```swift
/// var configuration = AppConfiguration(baseURL: apiURL)
/// configuration.authContract = MyBackendAuthContract()
/// configuration.refreshLeeway = .seconds(30)
/// ```
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
  /// A store of the app's own for the session's tokens (one on the keychain, say), used in place
  /// of the one ``storage`` names, which then writes no token file; `nil` by default.
  /// ``AppContainer/flushStorage()`` does not cover it.
  public var tokenStore: (any TokenStore)? = nil
  /// How the backend signs in, renews and ends a session; the sample API's by default.
  public var authContract: any AuthContract = SampleAPIAuthContract()
  /// Forgets what the app's own features keep of the signed-in user (`{ drafts.clear() }` for a
  /// `FileStore`): called with the todo cache's clearing whenever a session ends (a sign-out, the
  /// server ending it, a sign-in over a session never signed out), before the end is published.
  /// It must not wait or sign in or out. Nothing by default.
  public var forgetUserData: @Sendable () -> Void = {}
  /// How long before its expiry a token is renewed; a token that lives less than twice as long
  /// is renewed halfway through its life instead (see `AuthTokens.isExpired(at:leeway:)`).
  public var refreshLeeway: Duration = .seconds(10)
  /// How many signs of a refresh loop (a renewed token refused again at once, a token due as it
  /// arrived) may be seen within ``refreshWindow`` before the next refresh ends the session
  /// instead. Renewing a token that expired after the server took it never counts.
  public var maximumRefreshes = 3
  /// The window for ``maximumRefreshes``.
  public var refreshWindow: Duration = .seconds(60)
  /// The retries of every request, login and refresh included.
  public var retryPolicy = RetryPolicy()
  /// The app's own interceptors, in order, on every request, login and refresh included: an API
  /// key, an app-version header, a signature over the request. Each adapts a request after the
  /// auth interceptor has put the token on it, and is asked about a failed attempt after the
  /// auth interceptor and before ``retryPolicy``. A header one adds that holds a secret stays out
  /// of every log and error when its name says so (`apikey`, `Ocp-Apim-Subscription-Key`, any
  /// name ending in `Key` or `Token`) or is listed in ``credentialHeaders``.
  public var interceptors: [any RequestInterceptor] = []
  /// How the backend says why it refused a request, login included: by default
  /// `RefusalFormat.standard`'s shapes (problem details, the common frameworks' error lists, the
  /// `{"field": ["message"]}` object) in a 400, 409 or 422.
  public var refusalFormat = RefusalFormat.standard
  /// Names of fields and query items that hold credentials in the backend, beyond the common
  /// ones the client already redacts (`access`, `refresh`, `*_token`, `password`, …).
  public var credentialNames: Set<String> = []
  /// Names of headers that carry credentials, beyond `Authorization`, `Cookie`, the API-key
  /// headers and any header whose name ends in `Key` or `Token`.
  public var credentialHeaders: Set<String> = []

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

  /// Creates a configuration whose requests go out with `session`'s configuration, by default the
  /// shared session's.
  public init(
    baseURL: URL,
    session: URLSession = .shared,
    monitors: [any NetworkEventMonitor] = [],
    storage: Storage = .inMemory
  ) {
    self.init(
      baseURL: baseURL, transport: URLSessionTransport(session: session), monitors: monitors, storage: storage
    )
  }
}
