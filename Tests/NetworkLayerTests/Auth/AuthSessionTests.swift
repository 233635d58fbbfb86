import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// The auth interceptor against a real implementation of the API's auth contract: the embedded
/// sample API and the Python server. Refreshes are counted at the server.
@Suite("AuthInterceptor against the sample API", .timeLimit(.minutes(2)))
struct AuthSessionTests {
  @Test(
    "a 401 for a request sent with an outdated token is retried at once, without a refresh",
    arguments: SampleBackendKind.allCases
  )
  func outdatedTokenRetriedWithoutRefresh(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(tokenLifetime: 0, requireAuth: true)
      let outdated = try await connection.login()
      try await connection.configure(tokenLifetime: 3600)
      let current = try await connection.login()
      // The first read sees the outdated token; by the time the 401 comes back, a refresh
      // elsewhere has replaced it.
      let store = TokenStoreReplacedAfterFirstRead(first: outdated, then: current)
      let interceptor = AuthInterceptor(store: store, refresher: SampleAPIRefresher(connection: connection))
      let client = connection.authenticatedClient(interceptor)
      let request = Task { await client.outcome(ProtectedEndpoints.todo(1)) }

      let result = await request.value
      #expect((try? result.get())?.id == 1)
      let counters = try await connection.counters()
      #expect(counters.refreshes == 0)
      #expect(counters.paths["GET /todos/1"] == 2)
    }
  }

  @Test(
    "seed scenario 5: 1,000 concurrent 401s cause exactly one refresh, and all 1,000 are retried and succeed",
    arguments: SampleBackendKind.allCases
  )
  func oneRefreshForManyRejections(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(tokenLifetime: 0, requireAuth: true)
      let expiredOnServer = try await connection.login()
      try await connection.configure(tokenLifetime: 3600)
      let store = InMemoryTokenStore(expiredOnServer)
      let interceptor = AuthInterceptor(store: store, refresher: SampleAPIRefresher(connection: connection))
      let client = connection.authenticatedClient(interceptor)

      let results = await concurrently(1_000) { index in
        await client.outcome(ProtectedEndpoints.todo(index % 200 + 1))
      }

      let successes = results.filter { (try? $0.get()) != nil }.count
      #expect(successes == 1_000)
      let counters = try await connection.counters()
      #expect(counters.refreshes == 1)
      #expect(store.tokens != expiredOnServer)
    }
  }

  @Test(
    "seed scenario 5: when the refresh is rejected, every waiting request fails with one error, the tokens are cleared and the session ends once",
    arguments: SampleBackendKind.allCases
  )
  func refreshFailureEndsSession(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(tokenLifetime: 0, requireAuth: true)
      let tokens = try await connection.login()
      // Spend the refresh token elsewhere, so the client's refresh will be rejected.
      _ = try await connection.raw(
        "POST", "/auth/refresh", body: Data(#"{"refreshToken":"\#(tokens.refreshToken)"}"#.utf8))
      try await connection.configure(tokenLifetime: 3600)

      let store = InMemoryTokenStore(tokens)
      var interceptor: AuthInterceptor? = AuthInterceptor(
        store: store,
        refresher: SampleAPIRefresher(connection: connection)
      )
      let sessionEvents = StreamRecorder(interceptor?.sessionEvents ?? AsyncStream { $0.finish() })
      var client: URLSessionHTTPClient? = interceptor.map(connection.authenticatedClient)

      let results = await concurrently(100) { [client] index in
        await client?.outcome(ProtectedEndpoints.todo(index + 1)) ?? .failure(.cancelled)
      }

      let errors = Set(
        results.compactMap { result -> NetworkError? in
          if case .failure(let error) = result { error } else { nil }
        })
      #expect(results.allSatisfy { (try? $0.get()) == nil })
      #expect(errors.count == 1, "every request fails with the same error: \(errors)")
      guard case .refreshFailed? = errors.first else {
        Issue.record("expected refresh failed, got \(errors)")
        return
      }
      #expect(store.tokens == nil)
      #expect(try await connection.counters().refreshes == 2, "one by the test, one by the client")

      // A later login works normally.
      store.save(try await connection.login())
      #expect((try? await client?.outcome(ProtectedEndpoints.todo(1)).get())?.id == 1)

      client = nil
      interceptor = nil
      let events = await sessionEvents.waitUntil { _ in false }
      #expect(events.count == 1)
      #expect(events.first.map { SessionEvent.ended(reason: errors.first ?? .cancelled) == $0 } == true)
    }
  }

  @Test(
    "the refresh window stops a 401 loop with excessive refresh, which ends the session",
    arguments: SampleBackendKind.allCases
  )
  func refreshWindowStopsLoop(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: true)
      let store = InMemoryTokenStore(try await connection.login())
      let interceptor = AuthInterceptor(
        store: store,
        refresher: SampleAPIRefresher(connection: connection),
        maximumRefreshes: 3,
        refreshWindow: .seconds(600)
      )
      let sessionEvents = StreamRecorder(interceptor.sessionEvents)
      let client = connection.authenticatedClient(interceptor)
      // The server rejects every token for this path, fresh ones included.
      try await connection.inject(.init(path: "/todos/1", count: -1, status: 401))

      var results: [Result<TestTodo, NetworkError>] = []
      for _ in 0..<5 {
        results.append(await client.outcome(ProtectedEndpoints.todo(1)))
      }

      // Each of the first three fails with the server's own refusal of its renewed token, which
      // ends no session; the fourth gives up and ends it, so the fifth finds no tokens to send.
      #expect(results.prefix(3).allSatisfy { $0.error?.status == 401 }, "\(results)")
      #expect(results.suffix(2).map(\.error) == [.excessiveRefresh, .unauthorized])
      #expect(store.tokens == nil)
      #expect(await sessionEvents.waitForCount(1) == [.ended(reason: .excessiveRefresh)])
      let counters = try await connection.counters()
      #expect(counters.refreshes == 3)
      #expect(
        counters.paths["GET /todos/1"] == 7, "two tries for each of the first three, one for the fourth")
    }
  }

  /// The client is not told when tokens expire, so the server refusing each one (an injected 401
  /// stands for its expiry, so no timing decides it) is answered by a renewal and the request
  /// sent again, which the server takes: a token's lifetime at work, however often, and no loop.
  @Test(
    "a token the server refuses because it expired is renewed each time, past the refresh limit: only a renewed token refused again is a loop",
    arguments: SampleBackendKind.allCases
  )
  func expiryRefusalsAreNoLoop(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: true)
      let store = InMemoryTokenStore(try await connection.login())
      let interceptor = AuthInterceptor(
        store: store, refresher: SampleAPIRefresher(connection: connection), maximumRefreshes: 2,
        refreshWindow: .seconds(600))
      let sessionEvents = StreamRecorder(interceptor.sessionEvents)
      let client = connection.authenticatedClient(interceptor)

      var results: [Result<TestTodo, NetworkError>] = []
      for _ in 0..<3 {
        try await connection.inject(.init(path: "/todos/1", count: 1, status: 401))
        results.append(await client.outcome(ProtectedEndpoints.todo(1)))
      }

      #expect(results.allSatisfy { (try? $0.get())?.id == 1 }, "\(results)")
      let counters = try await connection.counters()
      #expect(counters.refreshes == 3)
      #expect(counters.paths["GET /todos/1"] == 6, "each refused once, then sent again")
      #expect(store.tokens != nil)
      #expect(sessionEvents.values.isEmpty, "the session never ended")
    }
  }

  @Test(
    "a refresh the server cannot answer keeps the session: its waiters get a refresh failure carrying its status, the tokens stay, and the next request refreshes",
    arguments: SampleBackendKind.allCases
  )
  func unansweredRefreshKeepsSession(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: true)
      var expired = try await connection.login()
      expired.expiresAt = Date(timeIntervalSinceNow: -60)
      let store = InMemoryTokenStore(expired)
      // One refresh in the window: a failed attempt that counted would make the second request
      // fail with excessive refresh.
      let interceptor = AuthInterceptor(
        store: store, refresher: SampleAPIRefresher(connection: connection), maximumRefreshes: 1)
      let sessionEvents = StreamRecorder(interceptor.sessionEvents)
      let client = connection.authenticatedClient(interceptor)
      try await connection.inject(.init(path: "/auth/refresh", count: 1, status: 503))

      let waiting = await concurrently(10) { index in
        await client.outcome(ProtectedEndpoints.todo(index + 1))
      }
      let failures = Set(waiting.compactMap(\.error))
      #expect(failures.count == 1 && waiting.allSatisfy { $0.error != nil }, "\(waiting)")
      guard case .refreshUnavailable(.badStatus(503, _))? = failures.first else {
        Issue.record("expected the refresh's own 503, as a refresh failure, got \(failures)")
        return
      }
      #expect(store.tokens == expired, "the session's tokens are kept")

      let next = await client.outcome(ProtectedEndpoints.todo(1))
      #expect((try? next.get())?.id == 1, "\(next)")
      #expect(store.tokens != expired)
      let counters = try await connection.counters()
      #expect(counters.refreshes == 2)
      #expect(counters.paths["GET /todos/1"] == 1, "nothing was sent while the refresh failed")
      #expect(sessionEvents.values.isEmpty, "the session never ended")
    }
  }
}

/// A store whose token changes right after it is first read, as if another request's refresh
/// had finished while the first request was on the wire.
private final class TokenStoreReplacedAfterFirstRead: TokenStore {
  private let state: Locked<(reads: Int, first: AuthTokens, then: AuthTokens)>

  init(first: AuthTokens, then: AuthTokens) {
    state = Locked((0, first, then))
  }

  var tokens: AuthTokens? {
    state.withLock { state in
      state.reads += 1
      return state.reads == 1 ? state.first : state.then
    }
  }

  func save(_ tokens: AuthTokens) { state.withLock { $0.then = tokens } }
  func clear() {}
}

extension Result {
  fileprivate var error: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
