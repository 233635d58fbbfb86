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

    let screens = (0..<10).map { _ in stage.container.makeTodoListViewModel() }
    // Each screen's first request is held at the server for half a second, so all ten have left
    // with the revoked token before the first 401 comes back.
    func refreshAllRejectedAtOnce() async throws {
      try await stage.control.inject([
        "path": "/todos", "method": "GET", "count": screens.count, "delay": 0.5,
      ])
      await withTaskGroup(of: Void.self) { group in
        for screen in screens { group.addTask { await screen.sendAndWait(.refresh) } }
      }
    }

    stage.step("sign in", through: "LoginViewModel → POST /auth/login")
    await stage.signIn()

    stage.step("the server revokes the token; ten screens refresh at the same moment", through: path)
    try await stage.control.revokeAccessTokens()
    let before = try await stage.control.counters()
    try await refreshAllRejectedAtOnce()
    let after = try await stage.control.counters()
    let refreshes = after.refreshes - before.refreshes
    let requests = after.paths["GET /todos", default: 0] - before.paths["GET /todos", default: 0]
    stage.show("refreshes at the server", refreshes)
    stage.show("GET /todos at the server", requests)
    stage.show("distinct states of the ten screens", Set(screens.map { "\($0.state)" }).sorted())
    stage.expect(refreshes == 1, "exactly one refresh ran")
    stage.expect(requests == 2 * screens.count, "every request got a 401 and was retried once")
    stage.expect(screens.allSatisfy { $0.state.phase == .loaded }, "every screen shows the list")

    stage.step(
      "the server revokes the token again and now rejects every refresh; ten screens refresh", through: path)
    try await stage.control.inject(["path": "/auth/refresh", "status": 401, "count": -1])
    try await stage.control.revokeAccessTokens()
    _ = await sessions.drain()
    let taps = screens.map { EventTap($0.events) }
    try await refreshAllRejectedAtOnce()
    let expired = TodoListState.Phase.loadFailed(message: DomainError.sessionExpired.message)
    stage.show("distinct states of the ten screens", Set(screens.map { "\($0.state)" }).sorted())
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
    // The server renews sessions again, for whatever runs after this against the same server.
    try await stage.control.clearFaults()
  }
}
