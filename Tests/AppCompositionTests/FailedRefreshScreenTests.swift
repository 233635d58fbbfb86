import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// A screen tells the user their session ended only when it has: a refresh the server cannot
/// answer is a server problem, shown as one, and the user stays signed in.
@MainActor
@Suite("A failed token refresh, as a screen shows it", .timeLimit(.minutes(2)))
struct FailedRefreshScreenTests {
  @Test(
    "a load whose token refresh the server cannot answer shows a server error, keeps the session, and the next refresh loads",
    arguments: SampleBackendKind.allCases
  )
  func unansweredRefreshIsAServerError(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      // Every load first needs a refresh, which the server fails with 503 until the faults are
      // cleared.
      try await app.signInNeedingRefresh()
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 503))
      let screen = app.container.makeTodoListViewModel()
      let events = StreamRecorder(screen.events)

      await screen.sendAndWait(.refresh)

      #expect(screen.state.phase == .loadFailed(message: DomainError.server(status: 503).message))
      #expect(!screen.state.hasSessionEnded)
      var sessions = app.container.session.sessionUpdates().makeAsyncIterator()
      #expect(await sessions.next() == .signedIn)
      var counters = try await connection.counters()
      #expect(counters.refreshes >= 1)
      #expect(counters.paths["GET /todos"] == nil, "no load is sent without a fresh token")

      _ = try await connection.raw("DELETE", "/_control/faults")
      await screen.sendAndWait(.refresh)
      #expect(screen.state.phase == .loaded)
      counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 1)
      #expect(events.values.isEmpty, "no trip to the sign-in screen")
    }
  }

  @Test(
    "a load whose refresh endpoint answers 404 shows a server problem, not that the list was not found",
    arguments: SampleBackendKind.allCases
  )
  func misconfiguredRefreshIsNotTheResourcesStatus(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      try await app.signInNeedingRefresh()
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 404))
      let screen = app.container.makeTodoListViewModel()

      await screen.sendAndWait(.refresh)

      #expect(screen.state.phase == .loadFailed(message: DomainError.server(status: 404).message))
      #expect(screen.state.phase != .loadFailed(message: DomainError.notFound.message))
      #expect(!screen.state.hasSessionEnded)
      let counters = try await connection.counters()
      #expect(counters.paths["POST /auth/refresh"] ?? 0 >= 1, "the refresh was asked for")
      #expect(counters.paths["GET /todos"] == nil, "no load is sent without a fresh token")
    }
  }
}
