import AppComposition
import DataLayer
import DomainLayer
import Foundation
import SampleBackend
import Testing

/// What the suites of an app's own backends share: a container on the backend, its answers, and
/// the checks of a refused login.
extension AppContainer {
  /// A container whose requests `backend` answers in process, signing in through `contract`,
  /// with whatever else `configure` sets.
  static func serving(
    _ backend: some InProcessHandler, contract: some AuthContract,
    configure: (inout AppConfiguration) -> Void = { _ in }
  ) -> AppContainer {
    let transport = InProcessTransport(backend)
    var configuration = AppConfiguration(baseURL: transport.baseURL, transport: transport)
    configuration.authContract = contract
    configure(&configuration)
    return AppContainer(configuration: configuration)
  }

  /// Types `username` and a wrong password into a new login screen, taps log in, and checks what
  /// a refused login must show: the screen's own words, the server's sentence as `serverMessage`,
  /// and both fields as the user typed them.
  @MainActor
  func expectRefusedLogin(
    username: String = "demo", serverMessage: String?, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let login = makeLoginViewModel()
    login.send(.usernameChanged(username))
    login.send(.passwordChanged("wrong"))
    await login.sendAndWait(.logInTapped)
    #expect(
      login.state.errorMessage == DomainError.invalidCredentials.message, sourceLocation: sourceLocation)
    #expect(login.state.serverMessage == serverMessage, sourceLocation: sourceLocation)
    #expect(
      login.state.username == username && login.state.password == "wrong", "nothing the user typed is lost",
      sourceLocation: sourceLocation)
  }
}

extension InProcessReply {
  /// An answer whose body is this JSON text, byte for byte, as a backend of its own writes it.
  static func json(_ status: Int, text: String) -> InProcessReply {
    .respond(
      InProcessResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8)))
  }
}
