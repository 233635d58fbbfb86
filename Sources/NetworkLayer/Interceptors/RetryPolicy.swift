public import Foundation

/// An interceptor that retries failures which are likely to be transient, waiting a little longer
/// each time, and only for requests that are safe to send again.
///
/// After a failed attempt it answers ``RetryDecision/doNotRetry`` when any of these holds:
/// - ``maxAttempts`` attempts have been made;
/// - the request is not idempotent (``RequestContext/isIdempotent``, which already includes an
///   endpoint's explicit opt-in), because a second `POST` may do the work twice;
/// - the error is not a ``NetworkError/badStatus(code:bodyExcerpt:)`` in ``retryableStatusCodes``
///   or a ``NetworkError/transport(code:)`` in ``retryableTransportCodes``. So `cancelled` (the
///   caller left), `timeout` (the client's own overall deadline has passed, and another attempt
///   cannot beat it), `unauthorized`, `refreshFailed`, `excessiveRefresh`, decoding and content
///   errors are never retried;
/// - any failure of the call so far is `refreshFailed` or `excessiveRefresh`: the session is gone,
///   and repeating the request cannot bring it back;
/// - the server sent a `Retry-After` longer than ``maxRetryAfter``.
///
/// Otherwise it answers ``RetryDecision/retry(after:)``, never ``RetryDecision/retryNow``, so the
/// decision has one shape; the delay may be `.zero`. The delay is the server's `Retry-After` when
/// it is valid (see ``RetryAfter``), else ``backoff(forRetry:)``.
public struct RetryPolicy: RequestInterceptor {
  /// The statuses retried by default: request timeout, too many requests, and the server errors
  /// that mean "not now" (500, 502, 503, 504). 501 is absent: "not implemented" does not change.
  public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

  /// The `URLError.Code` raw values retried by default: failures to reach the host or losing the
  /// connection, which say nothing about the request itself. `badServerResponse` (−1011) is what
  /// this toolchain reports when the server closes the connection before any response, just as
  /// `networkConnectionLost` is for a reset or a body cut short of its `Content-Length`: for an
  /// idempotent request all of them are safe to repeat.
  public static let defaultRetryableTransportCodes: Set<Int> = [
    URLError.Code.timedOut.rawValue,
    URLError.Code.networkConnectionLost.rawValue,
    URLError.Code.badServerResponse.rawValue,
    URLError.Code.cannotConnectToHost.rawValue,
    URLError.Code.cannotFindHost.rawValue,
    URLError.Code.dnsLookupFailed.rawValue,
    URLError.Code.notConnectedToInternet.rawValue,
  ]

  /// The most attempts a call makes, the first included; 1 or less turns retrying off.
  /// Default 3.
  public var maxAttempts: Int
  /// The backoff ceiling for the first retry; it doubles for each further one. Default 200 ms.
  public var baseDelay: Duration
  /// The largest backoff ceiling. Default 10 s.
  public var maxDelay: Duration
  /// The longest `Retry-After` the policy honours. A longer one ends the retries rather than
  /// being shortened, because retrying earlier than the server asked would only be refused
  /// again. Default 60 s.
  public var maxRetryAfter: Duration
  /// The HTTP statuses worth retrying. Default ``defaultRetryableStatusCodes``.
  public var retryableStatusCodes: Set<Int>
  /// The `URLError.Code` raw values worth retrying. Default ``defaultRetryableTransportCodes``.
  public var retryableTransportCodes: Set<Int>

  private let random: @Sendable (ClosedRange<Double>) -> Double
  private let now: @Sendable () -> Date

  /// Creates a policy; every parameter has the default documented on its property.
  ///
  /// - Parameters:
  ///   - maxAttempts: see ``maxAttempts``.
  ///   - baseDelay: see ``baseDelay``.
  ///   - maxDelay: see ``maxDelay``.
  ///   - maxRetryAfter: see ``maxRetryAfter``.
  ///   - retryableStatusCodes: see ``retryableStatusCodes``.
  ///   - retryableTransportCodes: see ``retryableTransportCodes``.
  ///   - random: Draws the jittered backoff from a range of seconds. The default is
  ///     `Double.random(in:)`; tests pass a fixed answer. A result outside the range is clamped
  ///     into it.
  ///   - now: The current time, used to turn a `Retry-After` date into a delay. Default `Date()`.
  public init(
    maxAttempts: Int = 3,
    baseDelay: Duration = .milliseconds(200),
    maxDelay: Duration = .seconds(10),
    maxRetryAfter: Duration = .seconds(60),
    retryableStatusCodes: Set<Int> = RetryPolicy.defaultRetryableStatusCodes,
    retryableTransportCodes: Set<Int> = RetryPolicy.defaultRetryableTransportCodes,
    random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
    self.retryableStatusCodes = retryableStatusCodes
    self.retryableTransportCodes = retryableTransportCodes
    self.random = random
    self.now = now
  }

  /// Decides as described on ``RetryPolicy``. Pure apart from `random` and `now`: it keeps no
  /// state between calls, so one policy can serve any number of concurrent calls.
  public func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
    guard context.attempt < maxAttempts,
      context.isIdempotent,
      isRetryable(failure.error),
      !context.failures.contains(where: Self.endsSession)
    else { return .doNotRetry }

    if let header = failure.retryAfter, let requested = RetryAfter.delay(from: header, now: now()) {
      return requested <= maxRetryAfter ? .retry(after: requested) : .doNotRetry
    }
    return .retry(after: backoff(forRetry: context.attempt))
  }

  /// The wait before retry number `retry` (1 for the first retry, after the first failure), with
  /// full jitter: a random duration between zero and a ceiling of `min(maxDelay, baseDelay ×
  /// 2^(retry − 1))`.
  ///
  /// Full jitter rather than a fixed delay spreads out clients that failed together, so they do
  /// not come back together. Never negative, never above ``maxDelay``, never overflows however
  /// large `retry` is; a `retry` below 1 is treated as 1.
  public func backoff(forRetry retry: Int) -> Duration {
    let ceiling = backoffCeiling(forRetry: retry)
    let upper = Self.seconds(of: ceiling)
    guard upper > 0 else { return .zero }
    let drawn = random(0...upper)
    // Returning the bounds themselves, and otherwise scaling the exact ceiling rather than
    // converting seconds back to a duration, keeps the result exact at both ends of the range.
    guard !drawn.isNaN, drawn > 0 else { return .zero }
    guard drawn < upper else { return ceiling }
    return ceiling * (drawn / upper)
  }

  private func backoffCeiling(forRetry retry: Int) -> Duration {
    let cap = max(maxDelay, .zero)
    var ceiling = min(max(baseDelay, .zero), cap)
    var doublings = max(retry - 1, 0)
    // Comparing with what is left below the cap, instead of doubling first, cannot overflow; the
    // loop ends within ~128 turns because the ceiling either doubles or reaches the cap.
    while doublings > 0, ceiling > .zero, ceiling < cap {
      ceiling = ceiling > cap - ceiling ? cap : ceiling * 2
      doublings -= 1
    }
    return ceiling
  }

  private func isRetryable(_ error: NetworkError) -> Bool {
    switch error {
    case .badStatus(let code, _): retryableStatusCodes.contains(code)
    case .transport(let code): retryableTransportCodes.contains(code)
    // Anything else is about the request, the caller or the session, not a passing condition;
    // `default` keeps a future error case from being retried before someone decides it should.
    default: false
    }
  }

  private static func endsSession(_ error: NetworkError) -> Bool {
    switch error {
    case .refreshFailed, .excessiveRefresh: true
    default: false
    }
  }

  private static func seconds(of duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
