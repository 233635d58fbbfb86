import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// The live app graph against one sample backend.
struct AppHarness {
  let connection: SampleBackendConnection
  let container: AppContainer

  init(_ connection: SampleBackendConnection, configuration: AppConfiguration? = nil) {
    self.connection = connection
    container = AppContainer(
      configuration: configuration
        ?? AppConfiguration(baseURL: connection.baseURL, transport: connection.transport)
    )
  }

  /// Signs in through the login screen, as a person would.
  @MainActor @discardableResult
  func signIn(password: String = "correct-horse-battery-staple") async -> LoginViewModel {
    let login = container.makeLoginViewModel()
    login.send(.usernameChanged("demo"))
    login.send(.passwordChanged(password))
    await login.sendAndWait(.logInTapped)
    return login
  }

  /// Signs in with a token that has expired at once (the server issues it with a lifetime of 0),
  /// so the first authenticated request first waits for a refresh.
  ///
  /// Every token the server issues after the login lives an hour, so it outlasts the trip of the
  /// request that carries it however busy the machine is, and the refresh happens exactly once.
  @MainActor
  func signInNeedingRefresh() async throws {
    try await connection.configure(tokenLifetime: 0)
    await signIn()
    try await connection.configure(tokenLifetime: 3600)
  }

  /// Waits until the server has counted `count` requests for `key` (`"GET /todos"`), and fails the
  /// test if it has not within half a minute.
  func waitForRequest(_ key: String, count: Int = 1) async throws {
    let counted = try await connection.counters(once: { $0.paths[key, default: 0] >= count })
      .paths[key, default: 0]
    try #require(counted >= count, "the server counted \(counted) of \(count) \(key)")
  }
}
