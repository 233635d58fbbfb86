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
  /// A call whose expired token is being renewed by a refresher that answers when released.
  struct RefreshOnItsWay {
    let server = RecordingServer()
    let refresher: StuckRefresher
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor: AuthInterceptor
    let call: Task<Result<TestTodo, NetworkError>, Never>

    /// Starts the call and waits until its refresh is on its way: the refresh answers `failure`
    /// once released, or new tokens when it is `nil`.
    init(failingWith failure: NetworkError? = nil) async throws {
      let refresher = StuckRefresher(failingWith: failure)
      self.refresher = refresher
      let (server, interceptor) = (server, AuthInterceptor(store: store, refresher: refresher))
      self.interceptor = interceptor
      call = Task { await server.client([interceptor]).outcome(RecordingServer.endpoint()) }
      try await Timing.poll { [refresher] in refresher.calls == 1 }
    }
  }

  @Test(
    "a refresh that answers after its tokens were cleared is given to the sign-out once, and nowhere else")
  func renewalAfterClearIsKeptForTheSignOut() async throws {
    let pending = try await RefreshOnItsWay()
    pending.store.clear()
    pending.refresher.release()

    #expect(await pending.call.value == .failure(.unauthorized), "no request is sent with the renewed tokens")
    #expect(pending.server.received.withLock { $0 }.isEmpty)
    #expect(pending.store.tokens == nil, "the signed-out session is not brought back")
    #expect(await pending.interceptor.renewal(of: .knownExpired)?.refreshToken == "rt-fresh-1")
    #expect(await pending.interceptor.renewal(of: .knownExpired) == nil, "given once")
  }

  @Test(
    "a request waiting for a refresh goes out with a login's tokens saved meanwhile, never the old session's")
  func waiterUsesTheNewLogin() async throws {
    let pending = try await RefreshOnItsWay()
    pending.store.save(.freshLogin)
    pending.refresher.release()

    _ = try await pending.call.value.get()
    #expect(pending.server.received.withLock { $0 } == ["Bearer at-login"])
    #expect(pending.store.tokens == .freshLogin)
  }

  @Test(
    "a request waiting for a refresh that fails goes out with a login's tokens saved meanwhile, and the new session goes on",
    arguments: [NetworkError.badStatus(code: 401, bodyExcerpt: nil), .badStatus(code: 503, bodyExcerpt: nil)])
  func waiterUsesTheNewLoginAfterAFailedRefresh(failure: NetworkError) async throws {
    let pending = try await RefreshOnItsWay(failingWith: failure)
    let sessionEvents = pending.interceptor.sessionEvents
    let events = Task {
      var ended = 0
      for await _ in sessionEvents { ended += 1 }
      return ended
    }
    pending.store.save(.freshLogin)
    pending.refresher.release()

    #expect(
      try await pending.call.value.get().id == 1, "the old session's failed refresh is not the new one's")
    #expect(pending.server.received.withLock { $0 } == ["Bearer at-login"])
    #expect(pending.store.tokens == .freshLogin, "the new session goes on")
    events.cancel()
    #expect(await events.value == 0, "no session ended")
  }

  @Test(
    "a sign-out asking while the refresh is still on its way waits for its answer, and gets it also when a new login comes first",
    arguments: [false, true])
  func renewalWaitsForTheRefresh(newLoginFirst: Bool) async throws {
    let pending = try await RefreshOnItsWay()
    pending.store.clear()
    let renewal = Task { await pending.interceptor.renewal(of: .knownExpired) }
    try await Task.sleep(for: .milliseconds(50))
    if newLoginFirst { pending.store.save(.freshLogin) }
    pending.refresher.release()

    #expect(await renewal.value?.refreshToken == "rt-fresh-1")
    let sent = await pending.call.value
    #expect(newLoginFirst ? (try? sent.get()) != nil : sent == .failure(.unauthorized))
    let expected = newLoginFirst ? ["Bearer at-login"] : []
    #expect(
      pending.server.received.withLock { $0 } == expected,
      "the waiter went out as the new login, or not at all")
  }

  @Test(
    "without a refresh on its way, or for other tokens, or once a new login is in use, there is no renewal")
  func noRenewalOtherwise() async throws {
    let idle = AuthInterceptor(
      store: InMemoryTokenStore(.freshLogin), refresher: StuckRefresher(stuckCalls: 0))
    #expect(await idle.renewal(of: .freshLogin) == nil)

    let pending = try await RefreshOnItsWay()
    pending.store.clear()
    pending.refresher.release()
    _ = await pending.call.value
    #expect(
      await pending.interceptor.renewal(of: .freshLogin) == nil, "tokens the refresh did not start from")

    pending.store.save(.freshLogin)
    _ = try await pending.server.client([pending.interceptor]).outcome(RecordingServer.endpoint()).get()
    #expect(
      await pending.interceptor.renewal(of: .knownExpired) == nil, "forgotten once a new login is in use")
  }
}
