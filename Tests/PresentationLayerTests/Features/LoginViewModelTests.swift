import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("LoginViewModel", .timeLimit(.minutes(1)))
struct LoginViewModelTests {
  private func typed(_ viewModel: LoginViewModel, _ username: String = "demo", _ password: String = "pw") {
    viewModel.send(.usernameChanged(username))
    viewModel.send(.passwordChanged(password))
  }

  @Test("the button is enabled only when both fields hold something")
  func buttonEnabled() {
    let viewModel = LoginViewModel(logIn: FakeLogIn(script: Script([])))
    #expect(!viewModel.state.isLoginEnabled)
    viewModel.send(.usernameChanged("demo"))
    #expect(!viewModel.state.isLoginEnabled)
    viewModel.send(.passwordChanged("pw"))
    #expect(viewModel.state.isLoginEnabled)
    viewModel.send(.usernameChanged("   "))
    #expect(!viewModel.state.isLoginEnabled)
  }

  @Test("tapping while a login is in flight does nothing: one tap, one login")
  func dropWhileBusy() async {
    let script = Script<User>([nil])
    let viewModel = LoginViewModel(logIn: FakeLogIn(script: script))
    typed(viewModel)
    viewModel.send(.logInTapped)
    await script.waitForWaiting(1)
    for _ in 0..<5 { viewModel.send(.logInTapped) }
    #expect(!viewModel.state.isLoginEnabled, "the button is disabled while logging in")
    script.release(.success(Fixtures.user))
    await viewModel.sendAndWait(.logInTapped)  // a no-op now the password is cleared
    #expect(script.calls == 1)
  }

  @Test("a failed login shows a readable message and keeps what the user typed")
  func failureKeepsInput() async {
    let viewModel = LoginViewModel(logIn: FakeLogIn(script: Script([.failure(.invalidCredentials)])))
    typed(viewModel, "demo", "wrong")
    await viewModel.sendAndWait(.logInTapped)
    #expect(viewModel.state.username == "demo")
    #expect(viewModel.state.password == "wrong")
    #expect(viewModel.state.errorMessage == DomainError.invalidCredentials.message)
    #expect(viewModel.state.isLoginEnabled)
  }

  @Test("seed scenario 1: wrong password, then offline, then a 500; the next tap still logs in")
  func seedScenario1() async {
    let failures: [Outcome<User>?] = [
      .failure(.invalidCredentials), .failure(.offline), .failure(.server(status: 500)),
    ]
    let viewModel = LoginViewModel(logIn: FakeLogIn(script: Script(failures + [.success(Fixtures.user)])))
    let events = StreamRecorder(viewModel.events)
    typed(viewModel)
    var messages: [String?] = []
    for _ in 0..<3 {
      await viewModel.sendAndWait(.logInTapped)
      messages.append(viewModel.state.errorMessage)
    }
    await viewModel.sendAndWait(.logInTapped)
    #expect(
      messages == [
        DomainError.invalidCredentials.message, DomainError.offline.message,
        DomainError.server(status: 500).message,
      ])
    #expect(await events.waitForCount(1) == [.loggedIn(Fixtures.user)])
    #expect(viewModel.state.errorMessage == nil)
  }

  @Test("the state's description never shows the password")
  func descriptionHidesPassword() {
    let viewModel = LoginViewModel(logIn: FakeLogIn(script: Script([])))
    typed(viewModel, "demo", "hunter2")
    #expect(!"\(viewModel.state)".contains("hunter2"))
    #expect(!"\(LoginFeature.Action.passwordChanged("hunter2"))".contains("hunter2"))
  }
}
