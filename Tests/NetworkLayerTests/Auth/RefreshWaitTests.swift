import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// A call that waits for a token refresh still ends on its own terms: at its deadline, at its
/// caller's cancellation, or as soon as a login stored new tokens, whatever the refresh does.
///
/// The refresher here hangs and ignores cancellation. Where a bound on elapsed time is asserted,
/// it is far below the time the call would otherwise hang, so a loaded machine cannot flake it.
@Suite("Waiting for a token refresh", .timeLimit(.minutes(1)))
struct RefreshWaitTests {
  @Test("a call waiting for a stuck refresh ends with timeout at its own deadline and sends nothing")
  func deadlineEndsTheWait() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let store = InMemoryTokenStore(.knownExpired)
    let client = server.client([AuthInterceptor(store: store, refresher: refresher)])

    let deadline = Duration.milliseconds(300)
    let (result, took) = await Timing.elapsed {
      await client.outcome(RecordingServer.endpoint(deadline: deadline))
    }

    let late = took - deadline
    print("deadlineEndsTheWait: the call ended \(late) after its \(deadline) deadline")
    #expect(result == .failure(.timeout))
    // It ends within milliseconds of its deadline when the machine is free (the time is printed),
    // but the whole suite under ThreadSanitizer, next to a flood test saturating both cores, can
    // delay it by seconds. Only the deadline can end this call with timeout before the refresh's
    // own deadline (30 s) would end every waiter; the bound lies halfway.
    #expect(late < .seconds(15), "the refresh never ends, and the call ended \(late) after its deadline")
    // The refresh goes on without the call, stores its result, and the call's request never leaves.
    refresher.release()
    try await Timing.poll { store.tokens?.accessToken == "at-fresh-1" }
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty)
  }

  @Test("a call waiting for a stuck refresh ends as cancelled when its caller cancels, and sends nothing")
  func cancellationEndsTheWait() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let client = server.client([
      AuthInterceptor(store: InMemoryTokenStore(.knownExpired), refresher: refresher)
    ])
    let call = Task { await client.outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    let (result, took) = await Timing.elapsed {
      call.cancel()
      return await call.value
    }

    print("cancellationEndsTheWait: the call ended \(took) after its caller cancelled it")
    #expect(result == .failure(.cancelled))
    // The time is printed; see deadlineEndsTheWait for the bound.
    #expect(took < .seconds(15), "the refresh never ends, and the call ended \(took) after its cancellation")
    refresher.release()
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty)
  }

  @Test("one waiter's cancellation leaves the shared refresh running for the others")
  func otherWaitersKeepWaiting() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let store = InMemoryTokenStore(.knownExpired)
    let client = server.client([AuthInterceptor(store: store, refresher: refresher)])
    let cancelled = Task { await client.outcome(RecordingServer.endpoint()) }
    let kept = Task { await client.outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    cancelled.cancel()
    #expect(await cancelled.value == .failure(.cancelled))
    refresher.release()

    #expect((try? await kept.value.get())?.id == 1)
    #expect(refresher.calls == 1)
    #expect(store.tokens?.accessToken == "at-fresh-1")
    #expect(server.received.withLock { $0 } == ["Bearer at-fresh-1"])
  }

  @Test(
    "a refresher that never returns fails its waiters with the refresh's timeout at the refresh deadline, keeps the session, and the next request refreshes again"
  )
  func refreshDeadline() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher(stuckCalls: 1)
    defer { refresher.release() }
    // The deadline also bounds the second, prompt refresh: long enough that a loaded machine
    // (the whole suite under ThreadSanitizer) still finishes that one in time.
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor = AuthInterceptor(
      store: store, refresher: refresher, refreshDeadline: .milliseconds(1_500))
    let sessionEvents = StreamRecorder(interceptor.sessionEvents)
    let client = server.client([interceptor])

    let (first, took) = await Timing.elapsed { await client.outcome(RecordingServer.endpoint()) }
    #expect(store.tokens == .knownExpired, "a refresh that timed out keeps the session")
    let second = await client.outcome(RecordingServer.endpoint())

    #expect(first == .failure(.refreshUnavailable(.timeout)))
    #expect(took < .seconds(30), "the call's own 60 s deadline did not end it: \(took)")
    #expect(sessionEvents.values.isEmpty, "the session never ended")
    #expect((try? second.get())?.id == 1, "\(second)")
    #expect(refresher.calls == 2)
    #expect(server.received.withLock { $0 } == ["Bearer at-fresh-2"])
  }

  @Test("a request made after a login goes out with the new token at once, while an older refresh is stuck")
  func loginSkipsStuckRefresh() async throws {
    let server = RecordingServer()
    let refresher = StuckRefresher()
    defer { refresher.release() }
    let events = EventLog()
    let store = InMemoryTokenStore(.knownExpired)
    let client = server.client([AuthInterceptor(store: store, refresher: refresher, monitors: [events])])
    let waiting = Task { await client.outcome(RecordingServer.endpoint()) }
    try await Timing.poll { refresher.calls == 1 }

    store.save(.freshLogin)
    let (afterLogin, took) = await Timing.elapsed { await client.outcome(RecordingServer.endpoint()) }

    #expect((try? afterLogin.get())?.id == 1)
    #expect(took < .seconds(20), "the new request waited \(took)")
    #expect(server.received.withLock { $0 } == ["Bearer at-login"])
    // The stuck refresh, when it ends, does not replace the login's tokens.
    refresher.release()
    _ = await waiting.value
    try await Timing.poll { events.succeededRefreshes == 1 }
    #expect(store.tokens == .freshLogin)
  }

  @Test("a login resets the refresh window")
  func loginResetsRefreshWindow() async throws {
    let server = RecordingServer()
    let store = InMemoryTokenStore(.knownExpired)
    let interceptor = AuthInterceptor(
      store: store, refresher: ExpiredTokensRefresher(), maximumRefreshes: 1, refreshWindow: .seconds(600))
    let client = server.client([interceptor])

    let refreshed = await client.outcome(RecordingServer.endpoint())
    let overLimit = await client.outcome(RecordingServer.endpoint())
    var login = AuthTokens.freshLogin
    login.expiresAt = Date(timeIntervalSinceNow: -60)
    store.save(login)
    let afterLogin = await client.outcome(RecordingServer.endpoint())

    #expect((try? refreshed.get()) != nil)
    #expect(overLimit == .failure(.excessiveRefresh))
    #expect((try? afterLogin.get()) != nil, "\(afterLogin)")
  }
}

/// Answers every refresh with tokens that are already expired, so each request needs another.
private struct ExpiredTokensRefresher: TokenRefresher {
  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    AuthTokens(
      accessToken: tokens.accessToken + "+", refreshToken: tokens.refreshToken + "+",
      expiresAt: Date(timeIntervalSinceNow: -60))
  }
}

/// Counts the refreshes that succeeded.
private final class EventLog: NetworkEventMonitor {
  private let succeeded = Locked(0)

  var succeededRefreshes: Int { succeeded.withLock { $0 } }

  func record(_ event: NetworkEvent) {
    if case .refreshSucceeded = event { succeeded.withLock { $0 += 1 } }
  }
}
