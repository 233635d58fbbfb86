import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

/// Calls that end while they wait for a slow refresh send nothing, counted at the server: the
/// embedded sample API and the Python server over loopback.
@Suite("Requests that end while they wait for a refresh", .timeLimit(.minutes(2)))
struct RefreshCancellationSessionTests {
  private static let refreshDelay = 6.0

  @Test(
    "100 POSTs cancelled while they wait for a slow refresh end as cancelled at once, and none reaches the server",
    arguments: SampleBackendKind.allCases
  )
  func cancelledWhileWaiting(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let (client, store, tokens) = try await Self.sessionWithSlowRefresh(connection)
      let calls = (0..<100).map { index in
        Task { await client.outcome(Self.createTodo(index)) }
      }
      try await Self.waitForRefresh(at: connection)

      let (results, took) = await Timing.elapsed {
        for call in calls { call.cancel() }
        var results: [Result<TestTodo, NetworkError>] = []
        for call in calls { results.append(await call.value) }
        return results
      }

      #expect(
        results.allSatisfy { $0 == .failure(.cancelled) }, "\(results.filter { $0 != .failure(.cancelled) })")
      // They ended while the refresh was still running: none of them waited for it.
      #expect(
        store.tokens?.accessToken == tokens.accessToken,
        "the refresh takes \(Self.refreshDelay) s; the calls ended after \(took)")
      try await Self.expectNothingSent(connection, store: store, replacing: tokens)
    }
  }

  @Test(
    "100 POSTs whose deadline passes while they wait for a slow refresh time out, and none reaches the server",
    arguments: SampleBackendKind.allCases
  )
  func deadlinePassesWhileWaiting(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let (client, store, tokens) = try await Self.sessionWithSlowRefresh(connection)
      // A call without a short deadline starts the refresh, so the 100 below surely wait for one
      // however slowly a loaded machine schedules them; it is cancelled before the refresh ends.
      let trigger = Task { await client.outcome(Self.createTodo(100)) }
      try await Self.waitForRefresh(at: connection)

      let (results, took) = await Timing.elapsed {
        await concurrently(100) { index in
          await client.outcome(Self.createTodo(index, deadline: .milliseconds(500)))
        }
      }
      trigger.cancel()
      #expect(await trigger.value == .failure(.cancelled))

      #expect(
        results.allSatisfy { $0 == .failure(.timeout) }, "\(results.filter { $0 != .failure(.timeout) })")
      // They ended while the refresh was still running: none of them waited for it.
      #expect(
        store.tokens?.accessToken == tokens.accessToken,
        "the refresh takes \(Self.refreshDelay) s; the calls ended after \(took)")
      try await Self.expectNothingSent(connection, store: store, replacing: tokens)
    }
  }

  private static func createTodo(_ index: Int, deadline: Duration? = nil) -> Endpoint<TestTodo> {
    Endpoint<TestTodo>(
      method: .post,
      path: ["todos"],
      body: .json(["title": "todo \(index)"]),
      requiresAuthentication: true,
      deadline: deadline
    )
  }

  /// A signed-in client whose token the client knows to be expired, so every call first waits for
  /// a refresh, which the server answers only after `refreshDelay`.
  private static func sessionWithSlowRefresh(
    _ connection: SampleBackendConnection
  ) async throws -> (URLSessionHTTPClient, InMemoryTokenStore, AuthTokens) {
    try await connection.configure(requireAuth: true)
    var tokens = try await connection.login()
    tokens.expiresAt = Date(timeIntervalSinceNow: -60)
    try await connection.inject(.init(path: "/auth/refresh", delay: refreshDelay))
    let store = InMemoryTokenStore(tokens)
    let interceptor = AuthInterceptor(store: store, refresher: SampleAPIRefresher(connection: connection))
    return (connection.authenticatedClient(interceptor), store, tokens)
  }

  private static func waitForRefresh(at connection: SampleBackendConnection) async throws {
    while try await connection.counters().refreshes == 0 {
      try await Task.sleep(for: .milliseconds(5))
    }
  }

  /// Waits until the refresh has ended and stored its tokens (it goes on without the calls that
  /// waited for it), then checks that the server never saw a POST.
  private static func expectNothingSent(
    _ connection: SampleBackendConnection,
    store: InMemoryTokenStore,
    replacing tokens: AuthTokens
  ) async throws {
    try await Timing.poll { store.tokens?.accessToken != tokens.accessToken }
    try await Task.sleep(for: .milliseconds(200))
    let counters = try await connection.counters()
    #expect(counters.paths["POST /todos"] == nil, "\(counters.paths)")
    #expect(counters.refreshes == 1)
  }
}
