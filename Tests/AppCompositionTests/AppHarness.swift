import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer

/// The live app graph against one sample backend.
struct AppHarness {
  let connection: SampleBackendConnection
  let container: AppContainer

  init(_ connection: SampleBackendConnection) {
    self.connection = connection
    container = AppContainer(
      configuration: AppConfiguration(baseURL: connection.baseURL, transport: connection.transport)
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

  /// Signs in with a token that counts as expired at once (it lives 9 s, and the client
  /// refreshes 10 s early), so every authenticated request first waits for a refresh.
  ///
  /// Every token the server issues from then on lives as long, so it must outlast the trip of
  /// the request that carries it: a token that lived 5 s could expire between its refresh and the
  /// load sent with it when the whole suite kept two cores busy (a test that takes 0.3 s alone
  /// took 10.5 s there and counted two loads), and the server's 401 made the client refresh and
  /// send the load again.
  @MainActor
  func signInNeedingRefresh() async throws {
    try await connection.configure(tokenLifetime: 9)
    await signIn()
  }

  /// Waits until the server has counted a request for `key` (`"GET /todos"`).
  func waitForRequest(_ key: String) async throws {
    while try await connection.counters().paths[key] == nil {
      try await Task.sleep(for: .milliseconds(5))
    }
  }
}
