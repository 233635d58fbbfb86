import DomainLayer
import PresentationLayer

extension Scenario {
  /// Seed scenario 1.
  static let loginSurvivesFailures = Scenario(
    name: "login-survives-failures",
    title: "A login fails (wrong password, offline, a 500); the next tap still logs in"
  ) { stage in
    let login = stage.container.makeLoginViewModel()
    let events = EventTap(login.events)
    let path =
      "LoginViewModel → LogIn → RemoteSessionRepository.logIn → URLSessionHTTPClient → POST /auth/login"
    login.send(.usernameChanged("demo"))

    stage.step("type a wrong password, tap Log in", through: path)
    login.send(.passwordChanged("wrong"))
    await login.sendAndWait(.logInTapped)
    stage.show("state", login.state)
    stage.expect(
      login.state.errorMessage == DomainError.invalidCredentials.message,
      "the screen says the password is wrong")

    // The right password from here on: the failures below are the network's and the server's,
    // and the last tap sends what the user typed before them.
    login.send(.passwordChanged("correct-horse-battery-staple"))
    var retyped = "type the right password; "
    var failures = 1
    if let setReachable = stage.setReachable {
      stage.step(retyped + "go offline, tap Log in", through: path)
      retyped = ""
      setReachable(false)
      await login.sendAndWait(.logInTapped)
      setReachable(true)
      stage.show("state", login.state)
      stage.expect(
        login.state.errorMessage == DomainError.offline.message, "the screen says the device is offline")
      failures += 1
    } else {
      stage.note("a remote server cannot be taken offline from here; the offline step is skipped")
    }

    stage.step(retyped + "the server fails with 500, tap Log in", through: path)
    try await stage.control.inject(["path": "/auth/login", "status": 500])
    await login.sendAndWait(.logInTapped)
    stage.show("state", login.state)
    stage.expect(
      login.state.errorMessage == DomainError.server(status: 500).message, "the screen says the server failed"
    )
    stage.expect(login.state.username == "demo", "nothing the user typed was lost")
    failures += 1

    stage.step("tap Log in again", through: path)
    await login.sendAndWait(.logInTapped)
    stage.show("state", login.state)
    let received = await events.drain(until: { !$0.isEmpty })
    stage.show("events", received)
    stage.expect(
      received == [.loggedIn(User(username: "demo"))], "the same button, after \(failures) failures, logs in")
  }
}
