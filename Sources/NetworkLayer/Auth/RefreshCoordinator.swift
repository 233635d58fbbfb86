import Foundation

/// Decides, for every request at once, which token to send and when to refresh.
///
/// An actor over a synchronous token store, so "look at the tokens, then maybe refresh" has no
/// suspension point in between: two requests can never both decide to refresh. Everyone who
/// needs fresh tokens meanwhile waits for the one refresh, each free to stop at its own deadline
/// (``RefreshWaiters``). New credentials it did not produce (a login) reset the refresh window.
actor RefreshCoordinator {
  struct Policy: Sendable {
    var leeway: TimeInterval
    var maximumRefreshes: Int
    var window: TimeInterval
    var refreshDeadline: Duration
  }

  /// One refresh: the tokens it started from, when it counted toward the window, and who waits
  /// for it.
  private final class Refresh: Sendable {
    let basis: AuthTokens
    let startedAt: Date
    let waiters = RefreshWaiters()

    init(basis: AuthTokens, startedAt: Date) {
      self.basis = basis
      self.startedAt = startedAt
    }
  }

  private let store: any TokenStore
  private let refresher: any TokenRefresher
  private let policy: Policy
  private let now: @Sendable () -> Date
  private let onEvent: @Sendable (NetworkEvent) -> Void
  private let onSessionEnded: @Sendable (NetworkError) -> Void
  private var inFlight: Refresh?
  private var recentRefreshes: [Date] = []
  /// The tokens this coordinator last read from the store or saved to it: stored tokens that
  /// differ were put there by someone else, a login.
  private var known: AuthTokens?
  /// The tokens whose refresh ended the session, and why: a late 401 for them gets that error.
  private var endedSession: (tokens: AuthTokens, error: NetworkError)?

  init(
    store: any TokenStore,
    refresher: any TokenRefresher,
    policy: Policy,
    now: @escaping @Sendable () -> Date,
    onEvent: @escaping @Sendable (NetworkEvent) -> Void,
    onSessionEnded: @escaping @Sendable (NetworkError) -> Void
  ) {
    self.store = store
    self.refresher = refresher
    self.policy = policy
    self.now = now
    self.onEvent = onEvent
    self.onSessionEnded = onSessionEnded
  }

  /// The tokens to send a request with: waits for a refresh in flight, refreshes first when the
  /// access token is known to be expired, and fails with ``NetworkError/unauthorized`` when
  /// signed out.
  func tokensForSending() async throws(NetworkError) -> AuthTokens {
    let stored = readStore()
    if let inFlight { return try await inFlight.waiters.wait().get() }
    guard let tokens = stored else { throw .unauthorized }
    guard tokens.isExpired(at: now(), leeway: policy.leeway) else { return tokens }
    return try await startRefresh(from: tokens).waiters.wait().get()
  }

  /// The tokens to retry with after the server rejected `rejectedAccessToken`: the stored ones if
  /// they are already newer, else those of one refresh for everyone.
  func tokensAfterRejection(of rejectedAccessToken: String?) async throws(NetworkError) -> AuthTokens {
    let stored = readStore()
    if let inFlight { return try await inFlight.waiters.wait().get() }
    guard let tokens = stored else {
      if let endedSession, endedSession.tokens.accessToken == rejectedAccessToken { throw endedSession.error }
      throw .unauthorized
    }
    guard tokens.accessToken == rejectedAccessToken else { return tokens }
    return try await startRefresh(from: tokens).waiters.wait().get()
  }

  /// Reads the store, and notices new credentials someone else saved: they reset the refresh
  /// window, and a refresh started from older tokens stops being the one new requests wait for.
  private func readStore() -> AuthTokens? {
    let stored = store.tokens
    if let stored, !Self.sameCredentials(stored, known) {
      recentRefreshes.removeAll()
      if let inFlight, !Self.sameCredentials(stored, inFlight.basis) { self.inFlight = nil }
    }
    known = stored
    return stored
  }

  private func startRefresh(from tokens: AuthTokens) throws(NetworkError) -> Refresh {
    let startedAt = now()
    recentRefreshes.removeAll { startedAt.timeIntervalSince($0) > policy.window }
    guard recentRefreshes.count < policy.maximumRefreshes else {
      endSession(startedFrom: tokens, with: .excessiveRefresh)
      throw .excessiveRefresh
    }
    recentRefreshes.append(startedAt)

    let refresh = Refresh(basis: tokens, startedAt: startedAt)
    inFlight = refresh
    onEvent(.refreshStarted)
    let refresher = self.refresher
    let deadline = policy.refreshDeadline
    let started = ContinuousClock.now
    Task {
      let result = await DeadlineRace.run(deadline: deadline, clock: ContinuousClock()) {
        () async throws(NetworkError) -> AuthTokens in
        try await refresher.refresh(tokens)
      }
      self.finish(refresh, with: result, duration: ContinuousClock.now - started)
    }
    return refresh
  }

  private func finish(_ refresh: Refresh, with result: Result<AuthTokens, NetworkError>, duration: Duration) {
    if inFlight === refresh { inFlight = nil }
    switch result {
    case .success(let fresh):
      // Tokens that changed meanwhile (a login, a logout) are newer than this refresh's answer.
      if Self.sameCredentials(store.tokens, refresh.basis) {
        store.save(fresh)
        known = fresh
      }
      onEvent(.refreshSucceeded(duration: duration))
      refresh.waiters.finish(.success(fresh))
    case .failure(let error) where Self.endsSession(error):
      let failure = NetworkError.refreshFailed(reason: Self.reason(for: error))
      onEvent(.refreshFailed(failure, duration: duration))
      endSession(startedFrom: refresh.basis, with: failure)
      refresh.waiters.finish(.failure(failure))
    case .failure(let error):
      onEvent(.refreshFailed(error, duration: duration))
      if let counted = recentRefreshes.firstIndex(of: refresh.startedAt) {
        recentRefreshes.remove(at: counted)
      }
      refresh.waiters.finish(.failure(Self.transientFailure(error)))
    }
  }

  /// Clears the store, if it still holds `tokens`, and announces that the session ended. Tokens
  /// that changed meanwhile (a login, a logout) belong to another session, which goes on.
  private func endSession(startedFrom tokens: AuthTokens, with error: NetworkError) {
    guard Self.sameCredentials(store.tokens, tokens) else { return }
    endedSession = (tokens, error)
    store.clear()
    known = nil
    recentRefreshes.removeAll()
    onSessionEnded(error)
  }

  /// Whether two token pairs are the same credentials. Expiry dates are left out: a store that
  /// round-trips them through a file may return them slightly changed.
  private static func sameCredentials(_ lhs: AuthTokens?, _ rhs: AuthTokens?) -> Bool {
    lhs?.accessToken == rhs?.accessToken && lhs?.refreshToken == rhs?.refreshToken
  }

  /// Only a definite "no" from the server ends the session; being offline during a refresh
  /// does not sign the user out.
  private static func endsSession(_ error: NetworkError) -> Bool {
    if case .unauthorized = error { return true }
    return error.status.map(rejectingStatuses.contains) ?? false
  }

  /// What waiters are told when the refresh failed but the session stays: never an error that
  /// reads as their own request's (a refresher that gave up did not finish in time).
  private static func transientFailure(_ error: NetworkError) -> NetworkError {
    if case .cancelled = error { return .refreshUnavailable(.timeout) }
    return .refreshUnavailable(error)
  }

  /// The statuses with which a server refuses a refresh token.
  private static let rejectingStatuses: Set<Int> = [400, 401, 403]

  private static func reason(for error: NetworkError) -> String {
    guard let status = error.status, rejectingStatuses.contains(status) else { return "\(error)" }
    return "the server rejected the refresh token (HTTP \(status)); sign in again"
  }
}
