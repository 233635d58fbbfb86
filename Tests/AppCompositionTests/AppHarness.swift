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
      configuration: AppConfiguration(baseURL: connection.baseURL, session: connection.session)
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

  /// Signs in with a token that counts as expired at once (it lives 5 s, and the client
  /// refreshes 10 s early), so every authenticated request first waits for a refresh.
  @MainActor
  func signInNeedingRefresh() async throws {
    try await connection.configure(tokenLifetime: 5)
    await signIn()
  }

  /// Waits until the server has counted a request for `key` (`"GET /todos"`).
  func waitForRequest(_ key: String) async throws {
    while try await connection.counters().paths[key] == nil {
      try await Task.sleep(for: .milliseconds(5))
    }
  }
}
