public import Foundation

/// An interceptor that retries failures which are likely to be transient, waiting a little longer
/// each time, and only for requests that are safe to send again.
///
/// It does not retry once ``maxAttempts`` attempts have been made; a request that is not
/// idempotent (a second `POST` may do the work twice); an error other than a status in
/// ``retryableStatusCodes`` or a transport code in ``retryableTransportCodes`` (so never
/// `cancelled`, `timeout`, `unauthorized`, or a decoding error); a call whose session has ended
/// (`refreshFailed`, `excessiveRefresh`); or a `Retry-After` longer than ``maxRetryAfter``.
/// Otherwise it answers ``RetryDecision/retry(after:)`` with the server's valid `Retry-After`
/// (see ``RetryAfter``), or else ``backoff(forRetry:)``.
public struct RetryPolicy: RequestInterceptor {
  /// The statuses retried by default: request timeout, too many requests, and the server errors
  /// that mean "not now" (500, 502, 503, 504). 501 is absent: "not implemented" does not change.
  public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

  /// The `URLError.Code` raw values retried by default: failures to reach the host or losing the
  /// connection, which say nothing about the request itself. (`badServerResponse` is what this
  /// toolchain reports when the server closes the connection before any response.)
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
  /// The longest `Retry-After` the policy honours; a longer one ends the retries, since retrying
  /// earlier than the server asked would be refused again. Default 60 s.
  public var maxRetryAfter: Duration
  /// The HTTP statuses worth retrying. Default ``defaultRetryableStatusCodes``.
  public var retryableStatusCodes: Set<Int>
  /// The `URLError.Code` raw values worth retrying. Default ``defaultRetryableTransportCodes``.
  public var retryableTransportCodes: Set<Int>

  private let random: @Sendable (ClosedRange<Double>) -> Double
  private let now: @Sendable () -> Date

  /// Creates a policy; every parameter has the default documented on its property. `random`
  /// draws the jittered backoff from a range of seconds (a result outside it is clamped), and
  /// `now` turns a `Retry-After` date into a delay; tests pass fixed answers.
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

  /// Decides as described on ``RetryPolicy``, keeping no state: one policy serves any number of
  /// concurrent calls.
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

  /// The wait before retry number `retry` (1 for the first): a random duration between zero and
  /// `min(maxDelay, baseDelay × 2^(retry − 1))`. Full jitter spreads out clients that failed
  /// together. Never negative, never above ``maxDelay``, never overflows; below 1 counts as 1.
  public func backoff(forRetry retry: Int) -> Duration {
    let ceiling = backoffCeiling(forRetry: retry)
    let upper = Self.seconds(of: ceiling)
    guard upper > 0 else { return .zero }
    let drawn = random(0...upper)
    // Scaling the exact ceiling keeps the result exact at both ends of the range.
    guard !drawn.isNaN, drawn > 0 else { return .zero }
    guard drawn < upper else { return ceiling }
    return ceiling * (drawn / upper)
  }

  private func backoffCeiling(forRetry retry: Int) -> Duration {
    let cap = max(maxDelay, .zero)
    var ceiling = min(max(baseDelay, .zero), cap)
    var doublings = max(retry - 1, 0)
    // Comparing with what is left below the cap, instead of doubling first, cannot overflow.
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
    // Anything else is not a passing condition; a future case is not retried until decided.
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
