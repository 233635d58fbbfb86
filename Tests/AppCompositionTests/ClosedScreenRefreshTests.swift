import AppComposition
import LayeredTestSupport
import PresentationLayer
import Testing

/// A screen closed while its request waits for a token refresh sends nothing, counted at the server.
@MainActor
@Suite("Closing a screen during a token refresh", .timeLimit(.minutes(2)))
struct ClosedScreenRefreshTests {
  @Test(
    "a todo-list screen closed while its create waits for a refresh sends no POST",
    arguments: SampleBackendKind.allCases
  )
  func closedScreenSendsNoPost(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      // The create first waits for a refresh, which the server holds until released.
      try await app.signInNeedingRefresh()
      try await connection.inject(.init(path: "/auth/refresh", delay: 600))
      var screen: TodoListViewModel? = app.container.makeTodoListViewModel()
      screen?.send(.newTitleChanged("written while the session renews"))
      screen?.send(.createTapped)
      try await app.waitForRequest("POST /auth/refresh")

      screen = nil

      // Another screen's load waits for the same refresh: once it has its list, the refresh is
      // over, and a POST let through by it would have been sent.
      let other = app.container.makeTodoListViewModel()
      let load = Task { await other.sendAndWait(.refresh) }
      #expect(try await connection.releaseDelays() == 1)
      await load.value
      #expect(other.state.phase == .loaded)
      let counters = try await connection.counters()
      #expect(counters.paths["POST /todos"] == nil, "\(counters.paths)")
      // One refresh, or more on a machine slow enough that the other screen's load begins after
      // the first refresh ended (a 5 s token is expired at once): the POST is what matters.
      #expect(counters.refreshes >= 1)
    }
  }
}
