public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Signs requests with the session's access token and renews the session when needed, once for
/// everyone.
///
/// The token goes under the backend's header and scheme (`Authorization: Bearer …` unless told
/// otherwise) or in its query item, only on endpoints that require authentication, and only to
/// the base URL's origin. A token known to be expired (within `leeway`) is refreshed before
/// sending; a 401 for a request sent with an outdated token is retried at once with the current
/// one; otherwise one refresh runs however many requests got a 401, and all of them are retried,
/// once.
/// Only a rejected refresh token (a refresh answered with a status the backend rejects refresh
/// tokens with: 400, 401 or 403 unless told otherwise), or a refresh loop, ends the session. A
/// loop shows as a renewed token that the request sent again with it has refused too, or a token
/// due as it arrived; a refresh after `maximumRefreshes` such signs within `refreshWindow` ends
/// the session instead. Renewing a token that expired, or came due, after the server took it is
/// its lifetime at work, however short, and never counts. When the session ends, the tokens are
/// cleared, every waiter fails with one error, and ``SessionEvent/ended(reason:)`` is published
/// on ``sessionEvents``. Any other failed refresh (offline, a 5xx, `refreshDeadline` passed)
/// keeps the session, and its waiters fail with ``NetworkError/refreshUnavailable(_:)`` carrying
/// the refresh's own failure. A waiting request stops waiting at its own deadline or
/// cancellation. <doc:NetworkingGuarantees> lists each of these with the test that proves it.
///
/// It is an actor over a synchronous token store, so "look at the tokens, then maybe refresh" has
/// no suspension point in between: two requests can never both decide to refresh. New
/// credentials it did not produce (a login) reset the refresh window. A refresh whose tokens were
/// replaced (a login) or cleared (a sign-out) while it ran, renewed or failed, saves and ends
/// nothing: its waiters go out with the stored tokens, or fail with ``NetworkError/unauthorized``
/// once signed out, and what it answered is kept for the sign-out to revoke (``renewal(of:)``).
public actor AuthInterceptor: RequestInterceptor {
  /// The statuses with which most backends reject a refresh token: 400 (OAuth's
  /// `invalid_grant`), 401 and 403.
  public static let defaultRejectedRefreshStatuses: Set<Int> = [400, 401, 403]

  /// One refresh: the tokens it started from, when it counted as a sign of a loop (if it did),
  /// and who waits for it, each free to stop at its own deadline.
  private final class Refresh: Sendable {
    let basis: AuthTokens
    let countedAt: Date?
    let waiters = RefreshWaiters()

    init(basis: AuthTokens, countedAt: Date?) {
      self.basis = basis
      self.countedAt = countedAt
    }
  }

  private let store: any TokenStore
  private let refresher: any TokenRefresher
  private let header: String
  /// What comes before the token in the header's value: the scheme and a space, or nothing.
  private let prefix: String
  /// The query item that carries the token instead of ``header``, if the backend wants one.
  private let queryItem: String?
  private let rejectsAccessToken: @Sendable (NetworkError) -> Bool
  private let rejectedRefreshStatuses: Set<Int>
  private let leeway: TimeInterval
  private let maximumRefreshes: Int
  private let refreshWindow: TimeInterval
  private let refreshDeadline: Duration
  private let monitors: [any NetworkEventMonitor]
  private let now: @Sendable () -> Date
  private let events = EventBroadcaster<SessionEvent>()
  private var inFlight: Refresh?
  /// When each sign of a refresh loop within the window was seen.
  private var loopSigns: [Date] = []
  /// The tokens refused again since the last refresh began: one sign of a loop each.
  private var refusedAgain: Set<String> = []
  /// The tokens this interceptor last read from the store or saved to it: stored tokens that
  /// differ were put there by someone else, a login. While the credentials stay the same it keeps
  /// the copy it saved, whole: a store of the app's own may keep fewer fields.
  private var known: AuthTokens?
  /// The tokens whose refresh ended the session, and why: a late 401 for them gets that error.
  private var endedSession: (tokens: AuthTokens, error: NetworkError)?
  /// What a refresh answered after the tokens it started from left the store, kept for the
  /// sign-out that cleared them to revoke: see ``renewal(of:)``.
  private var renewedAfterSignOut: (basis: AuthTokens, renewed: AuthTokens)?

  /// Creates the interceptor over the tokens in `store`, renewed by `refresher` (which must not
  /// send through this interceptor). The access token is sent as the value of `header`, after
  /// `scheme` and a space when there is a scheme (`Token`, `JWT`; `nil` for a bare token in
  /// `X-Auth-Token`, say); `header` is from then on a credential header for every client in the
  /// process (see `Redactor.addCredentialHeaders(_:)`). With a `queryItem` the token goes in that
  /// query item instead, after the endpoint's own (`auth`, as Firebase's Realtime Database takes
  /// an ID token), and that name is from then on a credential name. `rejectsAccessToken` says
  /// which failures refuse the access token (a 401 unless the backend says otherwise; see
  /// ``retry(after:context:)``). A refresh that fails with a
  /// status in `rejectedRefreshStatuses` (or with ``NetworkError/unauthorized``) rejected the
  /// refresh token and ends the session; any other failure keeps it. A token expiring within
  /// `leeway` counts as expired; `refreshDeadline` bounds one refresh; `monitors` hear the
  /// refresh events.
  public init(
    store: any TokenStore,
    refresher: any TokenRefresher,
    header: String = "Authorization",
    scheme: String? = "Bearer",
    queryItem: String? = nil,
    rejectsAccessToken: @escaping @Sendable (NetworkError) -> Bool = { $0.status == 401 },
    rejectedRefreshStatuses: Set<Int> = defaultRejectedRefreshStatuses,
    leeway: Duration = .seconds(10),
    maximumRefreshes: Int = 3,
    refreshWindow: Duration = .seconds(60),
    refreshDeadline: Duration = .seconds(30),
    monitors: [any NetworkEventMonitor] = [],
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.store = store
    self.refresher = refresher
    self.header = header
    self.prefix = scheme.flatMap { $0.isEmpty ? nil : "\($0) " } ?? ""
    self.queryItem = queryItem
    if let queryItem { Redactor.addCredentialNames([queryItem]) }
    self.rejectsAccessToken = rejectsAccessToken
    self.rejectedRefreshStatuses = rejectedRefreshStatuses
    Redactor.addCredentialHeaders([header])
    self.leeway = leeway.timeInterval
    self.maximumRefreshes = maximumRefreshes
    self.refreshWindow = refreshWindow.timeInterval
    self.refreshDeadline = refreshDeadline
    self.monitors = monitors
    self.now = now
  }

  /// Session events, for as long as the caller listens. Not replayed: a listener hears only
  /// what happens after it subscribed. Any number of listeners may listen at once.
  public nonisolated var sessionEvents: AsyncStream<SessionEvent> {
    events.stream()
  }

  /// Signs `request` with the current access token when its endpoint requires authentication,
  /// refreshing first a token known to be expired. Throws ``NetworkError/unauthorized`` without
  /// stored tokens, or the refresh's error.
  public nonisolated func adapt(
    _ request: URLRequest, context: RequestContext
  ) async throws(NetworkError) -> URLRequest {
    guard context.requiresAuthentication else { return request }
    var request = request
    // Whatever the endpoint set is replaced: an authenticated request carries the session's
    // token, and never to a foreign origin.
    guard Origin(context.baseURL).contains(request.url) else {
      present(nil, on: &request)
      return request
    }
    let tokens = try await tokensForSending()
    present(tokens.accessToken, on: &request)
    return request
  }

  /// Answers a refused access token (a 401 unless told otherwise) on an authenticated endpoint:
  /// ``RetryDecision/retryNow`` once a newer token is available (refreshing once for everyone if
  /// needed), else ``RetryDecision/fail(_:)`` with the refresh's error or the server's refusal of
  /// the renewed token (no session ends). The refusal is the attempt's error, so an endpoint whose
  /// backend says "token not verified" in a 200 body has its `map` throw a 401. One from another
  /// origin, where a redirect led without the token, is that server's answer: nothing is retried.
  public nonisolated func retry(
    after failure: AttemptFailure, context: RequestContext
  ) async -> RetryDecision {
    guard context.requiresAuthentication, rejectsAccessToken(failure.error),
      Origin(context.baseURL).contains(failure.response?.url ?? failure.request.url)
    else { return .doNotRetry }
    guard context.failures.filter(rejectsAccessToken).count <= 1 else {
      await noteRefusedAgain(accessToken(in: failure.request))
      return .fail(failure.error)
    }
    do throws(NetworkError) {
      _ = try await tokensAfterRejection(of: accessToken(in: failure.request))
      return .retryNow
    } catch {
      return .fail(error)
    }
  }

  /// The tokens the server issued for `tokens` in a refresh that was on its way when the app
  /// cleared them (a sign-out, perhaps already followed by a new login), once that refresh
  /// answers; `nil` when there was none, or it failed. The stored tokens are not brought back and
  /// no request is sent with these: they are for the sign-out to revoke, since a server that
  /// rotates refresh tokens has already revoked the cleared one.
  public func renewal(of tokens: AuthTokens) async -> AuthTokens? {
    if let inFlight, Self.sameCredentials(inFlight.basis, tokens) { _ = await inFlight.waiters.wait() }
    guard let kept = renewedAfterSignOut, Self.sameCredentials(kept.basis, tokens) else { return nil }
    renewedAfterSignOut = nil
    return kept.renewed
  }

  // MARK: - One refresh for everyone

  /// The tokens to send a request with: waits for a refresh in flight, refreshes first when the
  /// access token is known to be expired, and fails with ``NetworkError/unauthorized`` when
  /// signed out.
  private func tokensForSending() async throws(NetworkError) -> AuthTokens {
    let stored = readStore()
    if let inFlight { return try await inFlight.waiters.wait().get() }
    guard var tokens = stored else { throw .unauthorized }
    // A store that keeps no arrival time would make every short-lived token look due from the start.
    tokens.issuedAt = tokens.issuedAt ?? known?.issuedAt
    guard tokens.isExpired(at: now(), leeway: leeway) else { return tokens }
    // A token already due as it arrived would be renewed before every request.
    let dueOnArrival = tokens.issuedAt.map { tokens.isExpired(at: $0, leeway: leeway) } ?? true
    return try await startRefresh(from: tokens, dueOnArrival: dueOnArrival).waiters.wait().get()
  }

  /// The tokens to retry with after the server rejected `rejectedAccessToken`: the stored ones if
  /// they are already newer, else those of one refresh for everyone.
  private func tokensAfterRejection(
    of rejectedAccessToken: String?
  ) async throws(NetworkError) -> AuthTokens {
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
    guard !Self.sameCredentials(stored, known) else { return stored }
    if let stored {
      loopSigns.removeAll()
      renewedAfterSignOut = nil
      if let inFlight, !Self.sameCredentials(stored, inFlight.basis) { self.inFlight = nil }
    }
    known = stored
    return stored
  }

  /// Notes a token refused by a request already sent again for a refused token: one sign of a
  /// loop for each such token since the last refresh began, however many requests it refused.
  private func noteRefusedAgain(_ token: String?) {
    guard let token, refusedAgain.insert(token).inserted else { return }
    loopSigns.append(now())
  }

  /// Starts the one refresh everyone waits for, unless `maximumRefreshes` signs of a loop within
  /// the window end the session instead. Renewing a token `dueOnArrival` is itself such a sign.
  private func startRefresh(from tokens: AuthTokens, dueOnArrival: Bool = false) throws(NetworkError)
    -> Refresh
  {
    let startedAt = now()
    loopSigns.removeAll { startedAt.timeIntervalSince($0) > refreshWindow }
    guard loopSigns.count < maximumRefreshes else {
      endSession(startedFrom: tokens, with: .excessiveRefresh)
      throw .excessiveRefresh
    }
    if dueOnArrival { loopSigns.append(startedAt) }
    refusedAgain.removeAll()

    let refresh = Refresh(basis: tokens, countedAt: dueOnArrival ? startedAt : nil)
    inFlight = refresh
    record(.refreshStarted)
    let (refresher, deadline) = (self.refresher, refreshDeadline)
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
    // Tokens that changed meanwhile (a login, a logout) are newer than this refresh's answer,
    // whether it renewed or failed: its waiters go out with them, and no request goes out with
    // the tokens of a session that was signed out.
    let current = store.tokens
    let replaced = !Self.sameCredentials(current, refresh.basis)
    let newer: Result<AuthTokens, NetworkError> = current.map { .success($0) } ?? .failure(.unauthorized)
    switch result {
    case .success(let fresh):
      record(.refreshSucceeded(duration: duration))
      if replaced {
        // A sign-out, perhaps followed by a new login, must still be able to revoke it.
        renewedAfterSignOut = (refresh.basis, fresh)
        refresh.waiters.finish(newer)
      } else {
        store.save(fresh)
        known = fresh
        refresh.waiters.finish(.success(fresh))
      }
    case .failure(let error) where rejectsRefreshToken(error):
      let failure = NetworkError.refreshFailed(reason: Self.reason(for: error))
      record(.refreshFailed(failure, duration: duration))
      endSession(startedFrom: refresh.basis, with: failure)
      refresh.waiters.finish(replaced ? newer : .failure(failure))
    case .failure(let error):
      record(.refreshFailed(error, duration: duration))
      if let countedAt = refresh.countedAt, let counted = loopSigns.firstIndex(of: countedAt) {
        loopSigns.remove(at: counted)
      }
      refresh.waiters.finish(replaced ? newer : .failure(Self.transientFailure(error)))
    }
  }

  /// Clears the store, if it still holds `tokens`, and announces that the session ended. Tokens
  /// that changed meanwhile (a login, a logout) belong to another session, which goes on.
  private func endSession(startedFrom tokens: AuthTokens, with error: NetworkError) {
    guard Self.sameCredentials(store.tokens, tokens) else { return }
    endedSession = (tokens, error)
    store.clear()
    known = nil
    loopSigns.removeAll()
    events.send(.ended(reason: error))
  }

  private func record(_ event: NetworkEvent) {
    for monitor in monitors { monitor.record(event) }
  }

  /// Puts `token` where the backend reads it, replacing whatever was there, or removes it.
  private nonisolated func present(_ token: String?, on request: inout URLRequest) {
    if let queryItem {
      request.url = request.url?.settingQueryItem(queryItem, to: token)
    } else {
      request.setCanonicalHeaderField(header, to: token.map { prefix + $0 })
    }
  }

  /// The access token `request` was sent with, read back from where ``adapt(_:context:)`` put it.
  private nonisolated func accessToken(in request: URLRequest) -> String? {
    if let queryItem { return request.url?.queryValue(named: queryItem) }
    guard let value = request.value(forHTTPHeaderField: header), value.hasPrefix(prefix) else { return nil }
    return String(value.dropFirst(prefix.count))
  }

  /// Whether two token pairs are the same credentials. Expiry dates are left out: a store that
  /// round-trips them through a file may return them slightly changed.
  private static func sameCredentials(_ lhs: AuthTokens?, _ rhs: AuthTokens?) -> Bool {
    lhs?.accessToken == rhs?.accessToken && lhs?.refreshToken == rhs?.refreshToken
  }

  /// Only a definite "no" from the server ends the session; being offline during a refresh
  /// does not sign the user out.
  private func rejectsRefreshToken(_ error: NetworkError) -> Bool {
    if case .unauthorized = error { return true }
    return error.status.map(rejectedRefreshStatuses.contains) ?? false
  }

  /// What waiters are told when the refresh failed but the session stays: never an error that
  /// reads as their own request's (a refresher that gave up did not finish in time).
  private static func transientFailure(_ error: NetworkError) -> NetworkError {
    if case .cancelled = error { return .refreshUnavailable(.timeout) }
    return .refreshUnavailable(error)
  }

  /// Why a refresh that ``rejectsRefreshToken(_:)`` ended the session.
  private static func reason(for error: NetworkError) -> String {
    guard let status = error.status else { return "\(error)" }
    return "the server rejected the refresh token (HTTP \(status)); sign in again"
  }
}
