public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Signs requests with the session's bearer token and renews the session when needed, once for
/// everyone.
///
/// `Authorization: Bearer …` goes only on endpoints that require authentication, and only to the
/// base URL's origin. A token known to be expired (within `leeway`) is refreshed before sending; a
/// 401 for a request sent with an outdated token is retried at once with the current one;
/// otherwise one refresh runs however many requests got a 401, and all of them are retried, once.
/// Only a rejected refresh token (400, 401 or 403), or more than `maximumRefreshes` refreshes
/// within `refreshWindow`, ends the session: the tokens are cleared, every waiter fails with one
/// error, and ``SessionEvent/ended(reason:)`` is published on ``sessionEvents``. Any other failed
/// refresh (offline, a 5xx, `refreshDeadline` passed) keeps the session, and its waiters fail with
/// ``NetworkError/refreshUnavailable(_:)`` carrying the refresh's own failure. A waiting request stops
/// waiting at its own deadline or cancellation. <doc:NetworkingGuarantees> lists each of these
/// with the test that proves it.
public final class AuthInterceptor: RequestInterceptor {
  private let coordinator: RefreshCoordinator
  private let events = EventBroadcaster<SessionEvent>()

  /// Creates the interceptor over the tokens in `store`, renewed by `refresher` (which must not
  /// send through this interceptor). A token expiring within `leeway` counts as expired;
  /// `refreshDeadline` bounds one refresh; `monitors` hear the refresh events.
  public init(
    store: any TokenStore,
    refresher: any TokenRefresher,
    leeway: Duration = .seconds(10),
    maximumRefreshes: Int = 3,
    refreshWindow: Duration = .seconds(60),
    refreshDeadline: Duration = .seconds(30),
    monitors: [any NetworkEventMonitor] = [],
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    let events = self.events
    coordinator = RefreshCoordinator(
      store: store,
      refresher: refresher,
      policy: .init(
        leeway: leeway.timeInterval,
        maximumRefreshes: maximumRefreshes,
        window: refreshWindow.timeInterval,
        refreshDeadline: refreshDeadline
      ),
      now: now,
      onEvent: { event in
        for monitor in monitors { monitor.record(event) }
      },
      onSessionEnded: { reason in events.send(.ended(reason: reason)) }
    )
  }

  /// Session events, for as long as the caller listens. Not replayed: a listener hears only
  /// what happens after it subscribed. Any number of listeners may listen at once.
  public var sessionEvents: AsyncStream<SessionEvent> {
    events.stream()
  }

  /// Signs `request` with the current bearer token when its endpoint requires authentication,
  /// refreshing first a token known to be expired. Throws ``NetworkError/unauthorized`` without
  /// stored tokens, or the refresh's error.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
    guard context.requiresAuthentication else { return request }
    var request = request
    // Whatever the endpoint set is replaced: an authenticated request carries the session's
    // token, and never to a foreign origin.
    guard Origin(context.baseURL).contains(request.url) else {
      request.setCanonicalHeaderField("Authorization", to: nil)
      return request
    }
    let tokens = try await coordinator.tokensForSending()
    request.setCanonicalHeaderField("Authorization", to: "Bearer \(tokens.accessToken)")
    return request
  }

  /// Answers a 401 on an authenticated endpoint: ``RetryDecision/retryNow`` once a newer token
  /// is available (refreshing once for everyone if needed), or ``RetryDecision/fail(_:)`` after a
  /// second 401 or with the refresh's error.
  public func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
    guard context.requiresAuthentication, case .badStatus(401, _) = failure.error else {
      return .doNotRetry
    }
    let rejections = context.failures.filter { error in
      if case .badStatus(401, _) = error { true } else { false }
    }
    guard rejections.count <= 1 else { return .fail(.unauthorized) }
    do throws(NetworkError) {
      _ = try await coordinator.tokensAfterRejection(of: Self.bearerToken(in: failure.request))
      return .retryNow
    } catch {
      return .fail(error)
    }
  }

  private static func bearerToken(in request: URLRequest) -> String? {
    guard let value = request.value(forHTTPHeaderField: "Authorization"), value.hasPrefix("Bearer ") else {
      return nil
    }
    return String(value.dropFirst("Bearer ".count))
  }
}
