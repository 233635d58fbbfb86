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
