import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// A 407 (a proxy that wants its own sign-in) or a 511 (a network that wants one first, as a
/// hotel's or a train's portal answers, RFC 6585) comes from between the app and its server: the
/// server never saw the request. The screen says the server cannot be reached, keeps what it
/// shows and the session, and asks nothing again by itself.
@MainActor
@Suite("A network that wants its own sign-in, as a screen shows it", .timeLimit(.minutes(1)))
struct NetworkSignInScreenTests {
  @Test(
    "a load a proxy or a network portal stops says the server cannot be reached, keeps the list and the session, and is sent once",
    arguments: SampleBackendKind.allCases, [407, 511]
  )
  func stoppedOnTheWay(kind: SampleBackendKind, status: Int) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let screen = app.container.makeTodoListViewModel()
      await screen.sendAndWait(.refresh)
      #expect(screen.state.todos.count == 200)
      let before = try await connection.counters()
      try await connection.inject(.init(path: "/todos", count: 1, status: status))

      await screen.sendAndWait(.refresh)

      #expect(screen.state.phase == .loadFailed(message: DomainError.offline.message))
      #expect(screen.state.todos.count == 200, "what was shown stays")
      #expect(!screen.state.hasSessionEnded)
      let after = try await connection.counters()
      #expect(after.paths["GET /todos"] == (before.paths["GET /todos"] ?? 0) + 1, "not sent again")
      #expect(after.refreshes == before.refreshes, "no token renewed")
    }
  }
}
