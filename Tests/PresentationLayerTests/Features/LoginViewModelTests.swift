import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("LoginViewModel", .timeLimit(.minutes(1)))
@MainActor
struct LoginViewModelTests {
  private func store(_ outcomes: [Result<User, DomainError>?]) -> (TestStore<LoginFeature>, Script<User>) {
    let script = Script(outcomes)
    return (
      TestStore(LoginFeature(logIn: FakeLogIn(script: script)), initialState: LoginFeature.State()), script
    )
  }

  private func type(_ store: TestStore<LoginFeature>, _ username: String = "demo", _ password: String = "pw")
  {
    store.send(.usernameChanged(username)) { $0.username = username }
    store.send(.passwordChanged(password)) { $0.password = password }
  }

  @Test("the button is enabled only when both fields hold something")
  func buttonEnabled() async {
    let (store, _) = store([])
    #expect(!store.state.isLoginEnabled)
    store.send(.usernameChanged("demo")) { $0.username = "demo" }
    #expect(!store.state.isLoginEnabled)
    store.send(.passwordChanged("pw")) { $0.password = "pw" }
    #expect(store.state.isLoginEnabled)
    store.send(.usernameChanged("   ")) { $0.username = "   " }
    #expect(!store.state.isLoginEnabled)
    store.send(.logInTapped)
    await store.finish()
  }

  @Test("tapping while a login is in flight does nothing: one tap, one login")
  func dropWhileBusy() async {
    let (store, script) = store([nil])
    type(store)
    store.send(.logInTapped) { $0.isLoggingIn = true }
    await script.waitForWaiting(1)
    for _ in 0..<5 { store.send(.logInTapped) }
    #expect(!store.state.isLoginEnabled, "the button is disabled while logging in")
    script.release(.success(Fixtures.user))
    await store.receive {
      $0.isLoggingIn = false
      $0.password = ""
    }
    await store.receive(event: .loggedIn(Fixtures.user))
    await store.finish()
    #expect(script.calls == 1)
  }

  @Test("a failed login shows a readable message and keeps what the user typed")
  func failureKeepsInput() async {
    let (store, _) = store([.failure(.invalidCredentials)])
    type(store, "demo", "wrong")
    store.send(.logInTapped) { $0.isLoggingIn = true }
    await store.receive {
      $0.isLoggingIn = false
      $0.errorMessage = DomainError.invalidCredentials.message
    }
    #expect(store.state.isLoginEnabled)
    await store.finish()
  }

  @Test(
    "a login refused with field errors only gives their messages as the server's words, since the form has no place for each field's"
  )
  func fieldErrorsBecomeTheServersWords() async {
    let refusal = DomainError.rejected(
      message: nil,
      fieldErrors: [
        "email": ["Enter a valid email address."], "client_id": ["Unknown client.", "Update the app."],
      ])
    let (store, _) = store([.failure(refusal)])
    type(store, "demo", "pw")
    store.send(.logInTapped) { $0.isLoggingIn = true }
    await store.receive {
      $0.isLoggingIn = false
      $0.errorMessage = refusal.message
      $0.serverMessage = "Unknown client. Update the app. Enter a valid email address."
    }
    #expect(store.state.username == "demo" && store.state.password == "pw")
    await store.finish()
  }

  @Test("seed scenario 1: wrong password, then offline, then a 500; the next tap still logs in")
  func seedScenario1() async {
    let failures: [DomainError] = [.invalidCredentials, .offline, .server(status: 500)]
    let (store, _) = store(failures.map { .failure($0) } + [.success(Fixtures.user)])
    type(store)
    for failure in failures {
      let login = store.send(.logInTapped) {
        $0.isLoggingIn = true
        $0.errorMessage = nil
      }
      await store.receive {
        $0.isLoggingIn = false
        $0.errorMessage = failure.message
      }
      // The login lane drops taps until the failed login's work has returned.
      await login.finish()
    }
    store.send(.logInTapped) {
      $0.isLoggingIn = true
      $0.errorMessage = nil
    }
    await store.receive {
      $0.isLoggingIn = false
      $0.password = ""
    }
    await store.receive(event: .loggedIn(Fixtures.user))
    await store.finish()
  }

  @Test(
    "a tap after a failure shows but before its login has ended changes nothing, and the next tap logs in"
  )
  func tapAsFailedLoginEnds() async {
    // The use case yields its failure, then holds its stream open until the test lets it end:
    // the moment in which the button is enabled again while the login's work is still live.
    let outcomes = Script<User>([.failure(.invalidCredentials), .success(Fixtures.user)])
    let ending = Script<Void>([nil, .success(())])
    let viewModel = ViewModel(
      LoginFeature(logIn: EndsLater(outcomes: outcomes, ending: ending)), initialState: LoginFeature.State())
    viewModel.send(.usernameChanged("demo"))
    viewModel.send(.passwordChanged("pw"))
    let failedLogin = Task { await viewModel.sendAndWait(.logInTapped) }
    for await state in viewModel.states where state.errorMessage != nil { break }
    #expect(viewModel.state.isLoginEnabled)

    viewModel.send(.logInTapped)
    #expect(viewModel.state.isLoginEnabled, "a dropped tap leaves no login shown as in flight")
    ending.release(.success(()))
    await failedLogin.value
    #expect(viewModel.state.isLoginEnabled)
    #expect(viewModel.state.errorMessage == DomainError.invalidCredentials.message)

    let events = viewModel.events
    await viewModel.sendAndWait(.logInTapped)
    #expect(outcomes.calls == 2)
    #expect(viewModel.state.password.isEmpty && !viewModel.state.isLoggingIn)
    guard outcomes.calls == 2 else { return }  // no event is coming to wait for
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == .loggedIn(Fixtures.user))
  }

  @Test("the state's description never shows the password")
  func descriptionHidesPassword() {
    var state = LoginFeature.State()
    LoginFeature.reduce(&state, .passwordChanged("hunter2"))
    #expect(!"\(state)".contains("hunter2"))
    #expect(!"\(LoginFeature.Action.passwordChanged("hunter2"))".contains("hunter2"))
    #expect(!"\(LoginFeature.SideEffect.passwordChanged("hunter2"))".contains("hunter2"))
  }

  @Test("dump and Mirror of the state never show the password")
  func reflectionHidesPassword() {
    var state = LoginFeature.State()
    state.username = "demo"
    state.password = "hunter2"
    var dumped = ""
    dump(state, to: &dumped)
    #expect(!dumped.contains("hunter2"))
    #expect(dumped.contains("demo"), "the rest of the state is still shown")
    let children = Mirror(reflecting: state).children.map { "\($0.label ?? ""): \($0.value)" }
    #expect(!children.contains { $0.contains("hunter2") })
    #expect(children.contains("password: 7 characters"))
  }
}

/// Yields the scripted outcome, then ends its stream only when `ending` says so.
private struct EndsLater: LogInUseCase {
  let outcomes: Script<User>
  let ending: Script<Void>
  func callAsFunction(username: String, password: String) -> OutcomeStream<User, DomainError> {
    .outcomes { sink in
      sink.yield(await outcomes.next())
      _ = await ending.next()
    }
  }
}
