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
  /// What the server counted after the first, refused load.
  private struct FirstLoad {
    var requests: Int?
    var refreshes: Int
  }

  /// Signs in, has the server answer `GET /todos` with `fault`, and loads the list twice: the
  /// first load must say it is not allowed and keep the session and the screen, the second must
  /// load. Returns what the server counted after the first.
  private static func refusedThenLoaded(
    on connection: SampleBackendConnection, fault: SampleBackendConnection.Fault
  ) async throws -> FirstLoad {
    let app = AppHarness(connection)
    await app.signIn()
    try await connection.inject(fault)
    let screen = app.container.makeTodoListViewModel()
    let events = StreamRecorder(screen.events)

    await screen.sendAndWait(.refresh)

    #expect(screen.state.phase == .loadFailed(message: DomainError.forbidden.message))
    #expect(!screen.state.hasSessionEnded)
    let counters = try await connection.counters()
    var sessions = app.container.session.sessionUpdates().makeAsyncIterator()
    #expect(await sessions.next() == .signedIn)

    await screen.sendAndWait(.refresh)
    #expect(screen.state.phase == .loaded)
    let after = try await connection.counters()
    #expect(after.paths["GET /todos"] == (counters.paths["GET /todos"] ?? 0) + 1)
    #expect(events.values.isEmpty, "no trip to the sign-in screen")
    return FirstLoad(requests: counters.paths["GET /todos"], refreshes: counters.refreshes)
  }

  @Test(
    "a load the server forbids says it is not allowed, is sent once, renews no token, keeps the session, and the next refresh loads",
    arguments: SampleBackendKind.allCases
  )
  func forbiddenLoad(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let first = try await Self.refusedThenLoaded(
        on: connection, fault: .init(path: "/todos", count: 1, status: 403))
      #expect(first.requests == 1, "a 403 is not retried")
      #expect(first.refreshes == 0, "a 403 is never a reason to renew the token")
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
      let first = try await Self.refusedThenLoaded(
        on: connection, fault: .init(path: "/todos", count: 2, status: 401))
      #expect(first.requests == 2, "refused, renewed, and refused again")
      #expect(first.refreshes == 1)
    }
  }
}
