import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// A 403 means the signed-in user may not do this: the screen says so, the request is not sent
/// again, the token is not renewed, and the user stays signed in.
@MainActor
@Suite("A forbidden request, as a screen shows it", .timeLimit(.minutes(2)))
struct ForbiddenScreenTests {
  @Test(
    "a load the server forbids says it is not allowed, is sent once, renews no token, keeps the session, and the next refresh loads",
    arguments: SampleBackendKind.allCases
  )
  func forbiddenLoad(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      try await connection.inject(.init(path: "/todos", count: 1, status: 403))
      let screen = app.container.makeTodoListViewModel()
      let events = StreamRecorder(screen.events)

      await screen.sendAndWait(.refresh)

      #expect(screen.state.phase == .loadFailed(message: DomainError.forbidden.message))
      #expect(!screen.state.hasSessionEnded)
      var counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 1, "a 403 is not retried")
      #expect(counters.refreshes == 0, "a 403 is never a reason to renew the token")
      var sessions = app.container.session.sessionUpdates().makeAsyncIterator()
      #expect(await sessions.next() == .signedIn)

      await screen.sendAndWait(.refresh)
      #expect(screen.state.phase == .loaded)
      counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 2)
      #expect(events.values.isEmpty, "no trip to the sign-in screen")
    }
  }
  /// An endpoint that refuses every token, a renewed one too (a step of the server's own auth, as
  /// Matrix's user-interactive auth answers with a 401), refuses the request, not the session:
  /// the screen may not say the session ended while it goes on.
  @Test(
    "a load refused with a 401 even after the token was renewed says it is not allowed, keeps the session and stays on the screen",
    arguments: SampleBackendKind.allCases
  )
  func refusedAfterRenewalLoad(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      try await connection.inject(.init(path: "/todos", count: 2, status: 401))
      let screen = app.container.makeTodoListViewModel()
      let events = StreamRecorder(screen.events)

      await screen.sendAndWait(.refresh)

      #expect(screen.state.phase == .loadFailed(message: DomainError.forbidden.message))
      #expect(!screen.state.hasSessionEnded)
      var counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 2, "refused, renewed, and refused again")
      #expect(counters.refreshes == 1)
      var sessions = app.container.session.sessionUpdates().makeAsyncIterator()
      #expect(await sessions.next() == .signedIn)

      await screen.sendAndWait(.refresh)
      #expect(screen.state.phase == .loaded)
      counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 3)
      #expect(events.values.isEmpty, "no trip to the sign-in screen")
    }
  }
}
