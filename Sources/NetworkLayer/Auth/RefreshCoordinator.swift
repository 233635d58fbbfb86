import Foundation

/// Decides, for every request at once, which token to send and when to refresh.
///
/// An actor, and the token store is synchronous, so "look at the tokens, then maybe start a
/// refresh" happens without a suspension point in between: two requests can never both decide to
/// refresh. At most one refresh runs at a time; everyone who needs fresh tokens meanwhile awaits
/// the same task and gets the same outcome.
actor RefreshCoordinator {
  struct Policy: Sendable {
    var leeway: TimeInterval
    var maximumRefreshes: Int
    var window: TimeInterval
  }

  private let store: any TokenStore
  private let refresher: any TokenRefresher
  private let policy: Policy
  private let now: @Sendable () -> Date
  private let onEvent: @Sendable (NetworkEvent) -> Void
  private let onSessionEnded: @Sendable (NetworkError) -> Void
  private var inFlight: Task<RefreshOutcome, Never>?
  private var recentRefreshes: [Date] = []
  /// The access token whose refresh ended the session, and the error that ended it: a request
  /// that was sent with that token and is rejected after the session ended gets the same error
  /// as the requests that waited for the refresh.
  private var endedSession: (accessToken: String, error: NetworkError)?

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
    if let inFlight { return try await inFlight.value.result.get() }
    guard let tokens = store.tokens else { throw .unauthorized }
    guard tokens.isExpired(at: now(), leeway: policy.leeway) else { return tokens }
    return try await refresh(tokens)
  }

  /// The tokens to retry with after the server rejected `rejectedAccessToken`.
  ///
  /// If the stored token is already a different one (someone refreshed while this request was
  /// on the wire), it is returned without a refresh; otherwise one refresh runs for everyone.
  func tokensAfterRejection(of rejectedAccessToken: String?) async throws(NetworkError) -> AuthTokens {
    if let inFlight { return try await inFlight.value.result.get() }
    guard let tokens = store.tokens else {
      if let endedSession, endedSession.accessToken == rejectedAccessToken { throw endedSession.error }
      throw .unauthorized
    }
    guard tokens.accessToken == rejectedAccessToken else { return tokens }
    return try await refresh(tokens)
  }

  private func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    let startedAt = now()
    recentRefreshes.removeAll { startedAt.timeIntervalSince($0) > policy.window }
    guard recentRefreshes.count < policy.maximumRefreshes else { throw .excessiveRefresh }
    recentRefreshes.append(startedAt)

    let refresher = self.refresher
    let task = Task { () -> RefreshOutcome in
      do throws(NetworkError) {
        return RefreshOutcome(result: .success(try await refresher.refresh(tokens)), endsSession: false)
      } catch {
        return RefreshOutcome(
          result: .failure(.refreshFailed(reason: Self.reason(for: error))),
          endsSession: Self.endsSession(error)
        )
      }
    }
    inFlight = task
    onEvent(.refreshStarted)
    let clock = ContinuousClock()
    let started = clock.now
    let outcome = await task.value
    inFlight = nil
    switch outcome.result {
    case .success(let fresh):
      store.save(fresh)
      onEvent(.refreshSucceeded(duration: clock.now - started))
      return fresh
    case .failure(let failure):
      onEvent(.refreshFailed(failure, duration: clock.now - started))
      if outcome.endsSession {
        endedSession = (tokens.accessToken, failure)
        store.clear()
        onSessionEnded(failure)
      }
      throw failure
    }
  }

  /// Only a definite "no" from the server ends the session; being offline during a refresh
  /// does not sign the user out.
  private static func endsSession(_ error: NetworkError) -> Bool {
    switch error {
    case .badStatus(let code, _): [400, 401, 403].contains(code)
    case .unauthorized: true
    default: false
    }
  }

  private static func reason(for error: NetworkError) -> String {
    switch error {
    case .badStatus(let code, _) where [400, 401, 403].contains(code):
      "the server rejected the refresh token (HTTP \(code)); sign in again"
    default:
      "\(error)"
    }
  }
}

/// What a refresh produced, already in the form every waiting request receives.
struct RefreshOutcome: Sendable {
  /// Fresh tokens, or the ``NetworkError/refreshFailed(reason:)`` every waiter fails with.
  let result: Result<AuthTokens, NetworkError>
  /// Whether the server's answer ends the session.
  let endsSession: Bool
}
