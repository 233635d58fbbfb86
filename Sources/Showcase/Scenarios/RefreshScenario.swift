import DomainLayer
import PresentationLayer

extension Scenario {
  /// Seed scenario 5.
  static let oneRefresh = Scenario(
    name: "single-refresh",
    title:
      "Many requests get 401 at once: one refresh, all retried; a rejected refresh fails all and ends the session"
  ) { stage in
    let sessions = EventTap(stage.container.observeSession())
    let path = "10 × TodoListViewModel → ObserveTodos → RemoteTodoRepository → AuthInterceptor → GET /todos"

    func refreshAll(_ screens: [TodoListViewModel]) async {
      await withTaskGroup(of: Void.self) { group in
        for screen in screens { group.addTask { await screen.sendAndWait(.refresh) } }
      }
    }

    stage.step(
      "sign in with a token the server will reject at once", through: "LoginViewModel → POST /auth/login")
    try await stage.control.configure(["tokenLifetime": 0])
    await stage.signIn()
    try await stage.control.configure(["tokenLifetime": 3600])
    let before = try await stage.control.counters().refreshes

    stage.step("ten screens refresh at the same moment", through: path)
    let screens = (0..<10).map { _ in stage.container.makeTodoListViewModel() }
    await refreshAll(screens)
    let refreshes = try await stage.control.counters().refreshes - before
    stage.show("refreshes at the server", refreshes)
    stage.show("states", Set(screens.map { "\($0.state)" }))
    stage.expect(refreshes == 1, "exactly one refresh ran")
    stage.expect(screens.allSatisfy { $0.state.phase == .loaded }, "every screen shows the list")

    stage.step("sign in again; now the server rejects every refresh; ten screens refresh", through: path)
    try await stage.control.configure(["tokenLifetime": 0])
    await stage.signIn()
    try await stage.control.configure(["tokenLifetime": 3600])
    try await stage.control.inject(["path": "/auth/refresh", "status": 401, "count": -1])
    _ = await sessions.drain()
    let taps = screens.map { EventTap($0.events) }
    await refreshAll(screens)
    let expired = TodoListState.Phase.loadFailed(message: DomainError.sessionExpired.message)
    stage.show("states", Set(screens.map { "\($0.state)" }))
    stage.expect(
      screens.allSatisfy { $0.state.phase == expired }, "every screen fails with the same clear message")
    var sessionEnded = 0
    for tap in taps {
      let received = await tap.drain(until: { $0.contains(.sessionEnded) })
      sessionEnded += received.filter { $0 == .sessionEnded }.count
    }
    stage.show("sessionEnded events", sessionEnded)
    stage.expect(sessionEnded == screens.count, "every screen is told to send the user to sign in")
    let sessionChanges = await sessions.drain(until: { $0.last == .expired })
    stage.show("session", sessionChanges)
    stage.expect(sessionChanges.last == .expired, "the session has ended")
  }
}
