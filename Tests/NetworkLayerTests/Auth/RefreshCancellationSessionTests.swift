import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Calls that end while they wait for a slow refresh send nothing, counted at the server: the
/// embedded sample API and the Python server over loopback.
///
/// The server holds the refresh until the test releases it, once the calls have ended: how long
/// they take on a loaded machine cannot outrun the refresh, and the tests never sit out its delay.
@Suite("Requests that end while they wait for a refresh", .timeLimit(.minutes(2)))
struct RefreshCancellationSessionTests {
  /// Longer than any test here takes; each releases the refresh long before.
  private static let refreshDelay = 60.0

  @Test(
    "100 POSTs cancelled while they wait for a slow refresh end as cancelled at once, and none reaches the server",
    arguments: SampleBackendKind.allCases
  )
  func cancelledWhileWaiting(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let (client, store, tokens, auth) = try await Self.sessionWithSlowRefresh(connection)
      let calls = (0..<100).map { index in
        Task { await client.outcome(Self.createTodo(index)) }
      }
      try await Self.waitForRefresh(at: connection)
      // Every call is inside the auth interceptor, where the only wait is for the refresh the
      // server is holding, before any is cancelled.
      try await Timing.poll { auth.entered == 100 }
      let waiting = auth.entered

      let (results, took) = await Timing.elapsed {
        for call in calls { call.cancel() }
        var results: [Result<TestTodo, NetworkError>] = []
        for call in calls { results.append(await call.value) }
        return results
      }

      print("cancelledWhileWaiting(\(kind)): \(waiting) waiting calls all ended \(took) after their cancel")
      #expect(waiting == 100, "only \(waiting) of 100 calls were waiting for the refresh when cancelled")
      #expect(
        results.allSatisfy { $0 == .failure(.cancelled) }, "\(results.filter { $0 != .failure(.cancelled) })")
      // The time is printed; the bound is one a loaded machine cannot break, so it proves that
      // every waiting call ends, not how fast.
      #expect(took < .seconds(3), "100 calls ended \(took) after their cancel")
      try await Self.expectNothingSent(connection, store: store, replacing: tokens)
    }
  }

  @Test(
    "100 POSTs whose deadline passes while they wait for a slow refresh time out, and none reaches the server",
    arguments: SampleBackendKind.allCases
  )
  func deadlinePassesWhileWaiting(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let (client, store, tokens, _) = try await Self.sessionWithSlowRefresh(connection)
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
      print("deadlinePassesWhileWaiting(\(kind)): 100 calls with a 500 ms deadline all ended after \(took)")

      #expect(
        results.allSatisfy { $0 == .failure(.timeout) }, "\(results.filter { $0 != .failure(.timeout) })")
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
  /// a refresh, which the server holds until released; and the count of calls that entered its
  /// auth interceptor.
  private static func sessionWithSlowRefresh(
    _ connection: SampleBackendConnection
  ) async throws -> (URLSessionHTTPClient, InMemoryTokenStore, AuthTokens, EntryCounter) {
    try await connection.configure(requireAuth: true)
    var tokens = try await connection.login()
    tokens.expiresAt = Date(timeIntervalSinceNow: -60)
    try await connection.inject(.init(path: "/auth/refresh", delay: refreshDelay))
    let store = InMemoryTokenStore(tokens)
    let auth = EntryCounter(
      AuthInterceptor(store: store, refresher: SampleAPIRefresher(connection: connection)))
    let client = URLSessionHTTPClient(
      baseURL: connection.baseURL, transport: connection.transport, interceptors: [auth])
    return (client, store, tokens, auth)
  }

  private static func waitForRefresh(at connection: SampleBackendConnection) async throws {
    let counted = try await connection.counters(once: { $0.refreshes > 0 })
    try #require(counted.refreshes > 0, "the refresh never reached the server")
  }

  /// Checks that the calls ended while the refresh was still held, releases it, waits until it
  /// has stored its tokens (it goes on without the calls that waited for it), then checks that
  /// the server never saw a POST.
  private static func expectNothingSent(
    _ connection: SampleBackendConnection,
    store: InMemoryTokenStore,
    replacing tokens: AuthTokens
  ) async throws {
    #expect(store.tokens?.accessToken == tokens.accessToken, "the refresh ended before the calls did")
    // The refresh, and nothing else, was still waiting at the server.
    #expect(try await connection.releaseDelays() == 1)
    try await Timing.poll { store.tokens?.accessToken != tokens.accessToken }
    #expect(store.tokens?.accessToken != tokens.accessToken, "the released refresh stored no tokens")
    try await Task.sleep(for: .milliseconds(200))
    let counters = try await connection.counters()
    #expect(counters.paths["POST /todos"] == nil, "\(counters.paths)")
    #expect(counters.refreshes == 1)
  }
}

/// Counts the calls that entered the interceptor it wraps, which otherwise acts unchanged.
private final class EntryCounter: RequestInterceptor {
  private let wrapped: any RequestInterceptor
  private let count = Locked(0)

  init(_ wrapped: any RequestInterceptor) {
    self.wrapped = wrapped
  }

  var entered: Int { count.withLock { $0 } }

  func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
    count.withLock { $0 += 1 }
    return try await wrapped.adapt(request, context: context)
  }

  func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
    await wrapped.retry(after: failure, context: context)
  }
}
