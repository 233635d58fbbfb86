import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// A sign-out clears the tokens, or a login replaces them, while a refresh from them may be on
/// its way. No request goes out with what that refresh answers. After a sign-out the server has
/// rotated the cleared refresh token already, so the sign-out needs the refresh's answer to revoke
/// it: the interceptor keeps that for the sign-out, and for nothing else.
@Suite("The tokens of a refresh that answers after a sign-out or a login", .timeLimit(.minutes(1)))
struct SignOutRenewalTests {
  @Test(
    "a refresh that answers after its tokens were cleared is given to the sign-out once, and nowhere else")
  func renewalAfterClearIsKeptForTheSignOut() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor = AuthInterceptor(store: store, refresher: refresher)
    let call = Task { await server.client([interceptor]).outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    store.clear()
    refresher.release()

    #expect(await call.value == .failure(.unauthorized), "no request is sent with the renewed tokens")
    #expect(server.received.withLock { $0 }.isEmpty)
    #expect(store.tokens == nil, "the signed-out session is not brought back")
    #expect(await interceptor.renewal(of: .knownExpired)?.refreshToken == "rt-fresh-1")
    #expect(await interceptor.renewal(of: .knownExpired) == nil, "given once")
  }

  @Test(
    "a request waiting for a refresh goes out with a login's tokens saved meanwhile, never the old session's")
  func waiterUsesTheNewLogin() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor = AuthInterceptor(store: store, refresher: refresher)
    let call = Task { await server.client([interceptor]).outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    store.save(.freshLogin)
    refresher.release()

    _ = try await call.value.get()
    #expect(server.received.withLock { $0 } == ["Bearer at-login"])
    #expect(store.tokens == .freshLogin)
    #expect(await interceptor.renewal(of: .knownExpired) == nil, "only a sign-out's renewal is kept")
  }

  @Test("a sign-out asking while the refresh is still on its way waits for its answer")
  func renewalWaitsForTheRefresh() async throws {
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor = AuthInterceptor(store: store, refresher: refresher)
    let call = Task { await RecordingServer().client([interceptor]).outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    store.clear()
    let renewal = Task { await interceptor.renewal(of: .knownExpired) }
    try await Task.sleep(for: .milliseconds(50))
    refresher.release()

    #expect(await renewal.value?.refreshToken == "rt-fresh-1")
    _ = await call.value
  }

  @Test(
    "without a refresh on its way, or for other tokens, or once a new login is in use, there is no renewal")
  func noRenewalOtherwise() async throws {
    let refresher = StuckRefresher(stuckCalls: 0)
    let store = InMemoryTokenStore(.freshLogin)
    let interceptor = AuthInterceptor(store: store, refresher: refresher)
    #expect(await interceptor.renewal(of: .freshLogin) == nil)

    let server = RecordingServer()
    let stuck = StuckRefresher()
    defer { stuck.release() }
    let expired = InMemoryTokenStore(.knownExpired)
    let renewing = AuthInterceptor(store: expired, refresher: stuck)
    let call = Task { await server.client([renewing]).outcome(RecordingServer.endpoint()) }
    try await Timing.poll { stuck.calls == 1 }
    expired.clear()
    stuck.release()
    _ = await call.value
    #expect(await renewing.renewal(of: .freshLogin) == nil, "tokens the refresh did not start from")

    expired.save(.freshLogin)
    _ = try await server.client([renewing]).outcome(RecordingServer.endpoint()).get()
    #expect(await renewing.renewal(of: .knownExpired) == nil, "forgotten once a new login is in use")
  }
}
