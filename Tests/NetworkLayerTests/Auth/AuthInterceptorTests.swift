import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("AuthInterceptor, in process")
struct AuthInterceptorTests {
  private static let tokens = AuthTokens(
    accessToken: "at-current", refreshToken: "rt-current", expiresAt: nil)

  /// A stub that records the Authorization header of every request, by path.
  private final class HeaderRecorder: Sendable {
    let seen = Locked<[String: [String?]]>([:])
    let mount: InProcessTransport

    init() {
      let seen = self.seen
      mount = InProcessTransport(
        StubHandler { request in
          seen.withLock { $0[request.path, default: []].append(request.header("Authorization")) }
          let body = Data(#"{"userId":1,"id":1,"title":"a","completed":false}"#.utf8)
          return .respond(
            InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: body))
        }
      )
    }
  }

  @Test("the bearer token goes on endpoints that require authentication and on no others")
  func attachesOnlyWhereNeeded() async throws {
    let recorder = HeaderRecorder()
    let interceptor = AuthInterceptor(store: InMemoryTokenStore(Self.tokens), refresher: FailingRefresher())
    let client = URLSessionHTTPClient(
      baseURL: recorder.mount.baseURL,
      transport: recorder.mount,
      interceptors: [interceptor]
    )
    _ = try await client.send(Endpoint<TestTodo>(path: ["public"]))
    _ = try await client.send(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))
    _ = try await client.send(Endpoint<TestTodo>(path: ["basic"], headers: ["Authorization": "Basic ZDpk"]))
    let seen = recorder.seen.withLock { $0 }
    #expect(seen["/public"] == [nil])
    #expect(seen["/private"] == ["Bearer at-current"])
    #expect(seen["/basic"] == ["Basic ZDpk"], "an endpoint's own credentials are left alone")
  }

  @Test("without stored tokens an authenticated request fails as unauthorized without being sent")
  func signedOut() async {
    let recorder = HeaderRecorder()
    let client = URLSessionHTTPClient(
      baseURL: recorder.mount.baseURL,
      transport: recorder.mount,
      interceptors: [AuthInterceptor(store: InMemoryTokenStore(), refresher: FailingRefresher())]
    )
    let result = await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))
    #expect(result == .failure(.unauthorized))
    #expect(recorder.seen.withLock { $0.isEmpty })
  }

  @Test("a token known to be expired is refreshed before sending, once for every waiting request")
  func expiredTokenRefreshedFirst() async throws {
    let recorder = HeaderRecorder()
    let expired = AuthTokens(
      accessToken: "at-old", refreshToken: "rt-old", expiresAt: Date(timeIntervalSinceNow: -60))
    let refresher = StaticRefresher(fresh: Self.tokens)
    let store = InMemoryTokenStore(expired)
    let client = URLSessionHTTPClient(
      baseURL: recorder.mount.baseURL,
      transport: recorder.mount,
      interceptors: [AuthInterceptor(store: store, refresher: refresher)]
    )
    let results = await concurrently(50) { _ in
      await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))
    }
    #expect(results.allSatisfy { (try? $0.get()) != nil })
    #expect(refresher.calls.withLock { $0 } == 1)
    #expect(store.tokens == Self.tokens)
    #expect(recorder.seen.withLock { $0["/private"] ?? [] }.allSatisfy { $0 == "Bearer at-current" })
  }

  /// Tokens that live `lifetime` from the moment the refresher issues them on `clock`, numbered
  /// `at-1`, `at-2`, … in the order issued.
  private struct LifetimeRefresher: TokenRefresher {
    let clock: Locked<Date>
    let lifetime: TimeInterval
    let calls = Locked(0)

    func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
      let call = calls.withLock { calls in
        calls += 1
        return calls
      }
      let now = clock.withLock { $0 }
      return AuthTokens(
        accessToken: "at-\(call)", refreshToken: "rt-\(call)",
        expiresAt: now.addingTimeInterval(lifetime), issuedAt: now)
    }
  }

  /// A session on a clock the test moves, whose tokens, the first included, live `lifetime` from
  /// the moment they are issued, under a limit of one sign of a loop in ten minutes.
  private struct ClockedSession {
    let recorder = HeaderRecorder()
    let clock = Locked(Date(timeIntervalSinceReferenceDate: 0))
    let refresher: LifetimeRefresher
    let store: InMemoryTokenStore
    let sessionEvents: StreamRecorder<SessionEvent>
    let client: URLSessionHTTPClient

    init(lifetime: TimeInterval) {
      let (clock, start) = (clock, Date(timeIntervalSinceReferenceDate: 0))
      refresher = LifetimeRefresher(clock: clock, lifetime: lifetime)
      store = InMemoryTokenStore(
        AuthTokens(
          accessToken: "at-0", refreshToken: "rt-0", expiresAt: start.addingTimeInterval(lifetime),
          issuedAt: start))
      let interceptor = AuthInterceptor(
        store: store, refresher: refresher, maximumRefreshes: 1, refreshWindow: .seconds(600),
        now: { clock.withLock { $0 } })
      sessionEvents = StreamRecorder(interceptor.sessionEvents)
      client = URLSessionHTTPClient(
        baseURL: recorder.mount.baseURL, transport: recorder.mount, interceptors: [interceptor])
    }

    /// Moves the clock on by `seconds`, then sends one authenticated request.
    func send(after seconds: TimeInterval) async -> Result<TestTodo, NetworkError> {
      clock.withLock { $0.addTimeInterval(seconds) }
      return await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))
    }
  }

  @Test(
    "a token renewed because it came due is no loop: a session of ten-second tokens outlasts a limit of one refresh"
  )
  func renewalOnExpiryIsNoLoop() async throws {
    let session = ClockedSession(lifetime: 10)

    var results: [Result<TestTodo, NetworkError>] = []
    // Each request comes past half of its token's life, so each renews it first.
    for _ in 0..<4 { results.append(await session.send(after: 6)) }

    #expect(results.allSatisfy { (try? $0.get()) != nil }, "\(results)")
    #expect(session.refresher.calls.withLock { $0 } == 4)
    #expect(session.store.tokens?.accessToken == "at-4")
    #expect(
      session.recorder.seen.withLock { $0["/private"] } == [
        "Bearer at-1", "Bearer at-2", "Bearer at-3", "Bearer at-4",
      ])
    #expect(session.sessionEvents.values.isEmpty, "the session never ended")
  }

  @Test("a token that is due as it arrives is renewed in a loop, which the refresh limit ends")
  func tokenDueOnArrivalIsALoop() async throws {
    let session = ClockedSession(lifetime: 0)

    let first = await session.send(after: 0)
    let second = await session.send(after: 1)

    #expect((try? first.get()) != nil, "\(first)")
    #expect(second == .failure(.excessiveRefresh))
    #expect(session.refresher.calls.withLock { $0 } == 1)
    #expect(session.store.tokens == nil)
    #expect(await session.sessionEvents.waitForCount(1) == [.ended(reason: .excessiveRefresh)])
  }

  @Test(
    "a refresh that answers the very token the server refused is a loop too, which the refresh limit ends")
  func refreshAnsweringTheRefusedTokenIsALoop() async {
    let refused = AuthTokens(accessToken: "at-refused", refreshToken: "rt-refused", expiresAt: nil)
    let requests = Locked(0)
    let mount = InProcessTransport(
      StubHandler { _ in
        requests.withLock { $0 += 1 }
        return .respond(InProcessResponse(status: 401, headers: [:], body: Data()))
      })
    let store = InMemoryTokenStore(refused)
    let refresher = StaticRefresher(fresh: refused)
    let interceptor = AuthInterceptor(
      store: store, refresher: refresher, maximumRefreshes: 2, refreshWindow: .seconds(600))
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount, interceptors: [interceptor])

    var results: [Result<TestTodo, NetworkError>] = []
    for _ in 0..<4 {
      results.append(
        await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true)))
    }

    #expect(
      results == [
        .failure(.badStatus(code: 401, bodyExcerpt: nil)), .failure(.badStatus(code: 401, bodyExcerpt: nil)),
        .failure(.excessiveRefresh), .failure(.unauthorized),
      ])
    #expect(refresher.calls.withLock { $0 } == 2)
    #expect(requests.withLock { $0 } == 5, "two tries for each of the first two, one for the third")
    #expect(store.tokens == nil)
  }

  @Test(
    "a refresh answered with a status the interceptor was told rejects refresh tokens ends the session; any other keeps it",
    arguments: [(498, true), (401, false), (403, false)]
  )
  func rejectedRefreshStatusesDecide(status: Int, endsSession: Bool) async {
    let recorder = HeaderRecorder()
    let expired = AuthTokens(
      accessToken: "at-old", refreshToken: "rt-old", expiresAt: Date(timeIntervalSinceNow: -60))
    let store = InMemoryTokenStore(expired)
    let interceptor = AuthInterceptor(
      store: store, refresher: FailingRefresher(status: status), rejectedRefreshStatuses: [498])
    let sessionEvents = StreamRecorder(interceptor.sessionEvents)
    let client = URLSessionHTTPClient(
      baseURL: recorder.mount.baseURL,
      transport: recorder.mount,
      interceptors: [interceptor]
    )
    let result = await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))

    if endsSession {
      let ended = NetworkError.refreshFailed(
        reason: "the server rejected the refresh token (HTTP 498); sign in again")
      #expect(result == .failure(ended))
      #expect(store.tokens == nil)
      #expect(await sessionEvents.waitForCount(1) == [.ended(reason: ended)])
    } else {
      #expect(result == .failure(.refreshUnavailable(.badStatus(code: status, bodyExcerpt: nil))))
      #expect(store.tokens == expired, "the session is kept")
      #expect(sessionEvents.values.isEmpty)
    }
    #expect(recorder.seen.withLock { $0.isEmpty }, "nothing went out with the expired token")
  }

  @Test("dump of an interceptor whose session ended shows none of the ended session's tokens")
  func endedSessionHidesItsTokens() async {
    let recorder = HeaderRecorder()
    let ended = AuthTokens(
      accessToken: "at-secret", refreshToken: "rt-secret", expiresAt: Date(timeIntervalSinceNow: -60))
    let interceptor = AuthInterceptor(store: InMemoryTokenStore(ended), refresher: FailingRefresher())
    let client = URLSessionHTTPClient(
      baseURL: recorder.mount.baseURL,
      transport: recorder.mount,
      interceptors: [interceptor]
    )
    let result = await client.outcome(Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true))
    guard case .failure(.refreshFailed) = result else {
      Issue.record("expected the rejected refresh to end the session, got \(result)")
      return
    }

    var dumped = ""
    dump(interceptor, to: &dumped)
    #expect(!dumped.contains("secret"), "\(dumped)")
  }
}
