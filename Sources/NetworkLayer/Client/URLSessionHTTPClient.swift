public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// An ``HTTPClient`` that sends requests with `URLSession`.
///
/// Every call runs one pipeline: build the request (``RequestBuilder``) → let each interceptor
/// adapt it → send it (`URLSessionTransport`) → validate status, content type and emptiness →
/// decode. When an attempt fails, the interceptors decide, in order, whether to retry now, retry
/// after a delay, give up, or fail with an error of their own (see ``RequestInterceptor``).
///
/// Guarantees:
/// - every failure is a ``NetworkError``, thrown with typed throws;
/// - the whole call, retries and waits included (a token refresh it waits for too), ends within
///   the endpoint's deadline (or the client's default) with ``NetworkError/timeout``. The call
///   returns as soon as the deadline fires, without waiting for the transport or an interceptor
///   to unwind; they are cancelled and finish in the background. Work between waits (building
///   the request, decoding the response) is not interrupted: the call ends when it returns. The
///   client keeps this deadline itself: swift-corelibs-foundation truncates
///   `URLRequest.timeoutInterval` to whole seconds, so 0.5 s there means "time out at once";
/// - cancelling the calling task ends the call at once with ``NetworkError/cancelled`` and cancels
///   whatever it was waiting for: the request in flight, a pending retry, or its wait for a
///   token refresh (the refresh itself goes on for the other requests);
/// - a request is never handed to `URLSession` after its call was cancelled or timed out: the
///   client looks again after the interceptors have adapted it (they may have waited for a token
///   refresh), and the transport never resumes a task whose call is already cancelled;
/// - a finished call keeps nothing alive: its deadline timer is released when the call ends, not
///   when the deadline would have passed;
/// - credentials are only sent to the base URL's origin, also when the server redirects: a
///   redirect to another origin carries no credential header, a 307 or 308 to another origin is
///   not followed when its body holds credentials (a login's password, a refresh token), and the
///   session's cookie jar adds no cookies unless `sendsCookies` is set;
/// - a response body larger than the endpoint's or the client's `maximumResponseSize` ends the
///   call at once with ``NetworkError/responseTooLarge(limit:)`` and cancels the data task (on
///   Linux the connection closes when swift-corelibs-foundation gets to that cancel);
/// - a 401 is delivered as a 401, promptly, whatever its `WWW-Authenticate` scheme;
/// - monitors see every attempt, retry and outcome, with credentials already redacted.
public struct URLSessionHTTPClient: HTTPClient {
  private let baseURL: URL
  private let builder: RequestBuilder
  private let transport: URLSessionTransport
  private let interceptors: [any RequestInterceptor]
  private let monitors: [any NetworkEventMonitor]
  private let defaultDeadline: DeadlineLength
  private let clock: any Clock<Duration>

  /// Creates a client for the API at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: the API's root; endpoint paths are joined to it, keeping its own path.
  ///   - session: the session that carries the requests.
  ///   - interceptors: the chain that adapts requests and decides retries, in order.
  ///   - monitors: receivers of ``NetworkEvent``s.
  ///   - defaultDeadline: the deadline of endpoints that do not set their own (see
  ///     ``Endpoint/deadline`` for one of zero or less, or more than a year).
  ///   - clock: the clock for deadlines and retry waits; tests pass a manual one.
  ///   - maximumResponseSize: the largest response body, in bytes, of endpoints that do not set
  ///     their own (``Endpoint/maximumResponseSize``); see ``defaultMaximumResponseSize``.
  ///   - sendsCookies: whether the session's cookie jar may add its cookies to requests. Off by
  ///     default: an API client sends what its endpoints and interceptors say, nothing else.
  public init(
    baseURL: URL,
    session: URLSession,
    interceptors: [any RequestInterceptor] = [],
    monitors: [any NetworkEventMonitor] = [],
    defaultDeadline: Duration = .seconds(60),
    clock: any Clock<Duration> = ContinuousClock(),
    maximumResponseSize: Int = URLSessionHTTPClient.defaultMaximumResponseSize,
    sendsCookies: Bool = false
  ) {
    self.baseURL = baseURL
    self.builder = RequestBuilder(baseURL: baseURL)
    self.transport = URLSessionTransport(
      session: session,
      credentialOrigin: Origin(baseURL),
      maximumResponseSize: maximumResponseSize,
      sendsCookies: sendsCookies
    )
    self.interceptors = interceptors
    self.monitors = monitors
    self.defaultDeadline = DeadlineLength(defaultDeadline)
    self.clock = clock
  }

  /// Sends `endpoint` through the interceptors, with retries, within its deadline, and returns
  /// its decoded response.
  ///
  /// - Parameter endpoint: what to request and how to read the answer.
  /// - Returns: the decoded response of the attempt that succeeded.
  /// - Throws: ``NetworkError/timeout`` at the deadline, ``NetworkError/cancelled`` when the
  ///   calling task is cancelled, or the error of the last failed attempt (or the one an
  ///   interceptor chose).
  public func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
    let call = monitors.isEmpty ? nil : MonitoredCall.start(monitors: monitors)
    let deadline = endpoint.deadline.map(DeadlineLength.init) ?? defaultDeadline
    let scope = CallScope()
    // Ended before the first attempt is built, so nothing is sent and monitors see the call fail.
    if deadline.hasPassed { scope.end(.timeout) }
    let timer = DeadlineTimer.start(after: deadline, on: clock) { scope.end(.timeout) }
    // Released as soon as the call ends, not when the deadline would have passed.
    defer { timer.cancel() }
    var outcome = await withTaskCancellationHandler {
      () async -> Result<Response, NetworkError> in
      do throws(NetworkError) {
        let value = try await perform(
          endpoint, call: call, transportTimeout: deadline.transportTimeout, scope: scope)
        // Whichever came first wins: the value, or the deadline that fired while it was decoded.
        return scope.close().map { .failure($0) } ?? .success(value)
      } catch {
        return .failure(scope.close() ?? error)
      }
    } onCancel: {
      scope.end(.cancelled)
    }
    // The caller's cancellation wins over whatever the cancelled work reported.
    if Task.isCancelled, case .failure = outcome { outcome = .failure(.cancelled) }
    switch outcome {
    case .success(let value):
      call?.succeeded(endpoint)
      return value
    case .failure(let failure):
      call?.failed(endpoint, with: failure)
      throw failure
    }
  }

  /// Runs attempts until one succeeds or the interceptors stop retrying.
  ///
  /// It runs in the caller's task; every wait in it (interceptors, the request, a retry's pause)
  /// goes through `scope`, which ends that wait at once at the deadline or on cancellation.
  private func perform<Response>(
    _ endpoint: Endpoint<Response>,
    call: MonitoredCall?,
    transportTimeout: TimeInterval,
    scope: CallScope
  ) async throws(NetworkError) -> Response {
    var failures: [NetworkError] = []
    var attempt = 1
    while true {
      try Self.ensureOpen(scope)
      var request = try builder.makeRequest(for: endpoint)
      request.timeoutInterval = transportTimeout
      request.httpShouldHandleCookies = transport.sendsCookies
      if !interceptors.isEmpty {
        request = try await adapt(request, for: endpoint, attempt: attempt, failures: failures, scope: scope)
      }
      // Adapting may have waited (for a token refresh) past the caller's cancellation or the
      // deadline; such a request must never reach the wire.
      try Self.ensureOpen(scope)

      call?.attemptStarted(attempt, request: request)
      let failure: AttemptFailure
      do throws(NetworkError) {
        let (body, response) = try await transport.send(
          request, maximumResponseSize: endpoint.maximumResponseSize, scope: scope)
        call?.responseReceived(response, bodyByteCount: body.count)
        do throws(NetworkError) {
          return try ResponseReader.read(body, response: response, request: request, for: endpoint)
        } catch {
          failure = AttemptFailure(error: error, request: request, response: response)
        }
      } catch {
        failure = AttemptFailure(error: error, request: request, response: nil)
      }

      try await prepareRetry(
        after: failure, for: endpoint, attempt: attempt, failures: &failures, call: call, scope: scope)
      attempt += 1
      // A guard against an interceptor that says "retry" forever; real policies stop far earlier.
      if attempt > Self.attemptLimit { throw failure.error }
    }
  }

  /// Returns once the attempt that failed with `failure` may be repeated, having waited for the
  /// retry's delay; throws the error the call ends with otherwise.
  private func prepareRetry<Response>(
    after failure: AttemptFailure,
    for endpoint: Endpoint<Response>,
    attempt: Int,
    failures: inout [NetworkError],
    call: MonitoredCall?,
    scope: CallScope
  ) async throws(NetworkError) {
    try Self.ensureOpen(scope)
    if failure.error == .cancelled { throw .cancelled }
    failures.append(failure.error)
    // The first interceptor with a decision decides.
    let context = context(for: endpoint, attempt: attempt, failures: failures)
    var decision = RetryDecision.doNotRetry
    for interceptor in interceptors where decision == .doNotRetry {
      decision = try await scope.run { () async -> RetryDecision in
        await interceptor.retry(after: failure, context: context)
      }
    }
    switch decision {
    case .doNotRetry:
      throw failure.error
    case .fail(let error):
      throw error
    case .retryNow:
      call?.retrying(after: failure.error, delay: .zero)
    case .retry(let delay):
      call?.retrying(after: failure.error, delay: delay)
      try await pause(for: delay, scope: scope)
    }
  }

  /// `request` as every interceptor has adapted it, in order, checked again for what may not go
  /// on the wire.
  private func adapt<Response>(
    _ request: URLRequest,
    for endpoint: Endpoint<Response>,
    attempt: Int,
    failures: [NetworkError],
    scope: CallScope
  ) async throws(NetworkError) -> URLRequest {
    let context = context(for: endpoint, attempt: attempt, failures: failures)
    var request = request
    for interceptor in interceptors {
      let adapting = request
      request = try await scope.run { () async throws(NetworkError) -> URLRequest in
        try await interceptor.adapt(adapting, context: context)
      }
    }
    try RequestBuilder.validateWireSafety(of: request)
    return request
  }

  /// Waits `delay` on the client's clock before a retry.
  ///
  /// A delay comes from an interceptor, and through `RetryPolicy` from a server's `Retry-After`,
  /// so it may be longer than `ContinuousClock` can count, which traps. No wait needs to be
  /// longer than the longest deadline: the call's own deadline ends it first.
  private func pause(for delay: Duration, scope: CallScope) async throws(NetworkError) {
    let clock = self.clock
    let delay = min(delay, DeadlineLength.longest)
    try await scope.run { () async throws(NetworkError) in
      do {
        try await clock.sleep(for: delay)
      } catch {
        throw .cancelled
      }
    }
  }

  /// Throws why the call ended, if it has: the caller's cancellation or the deadline.
  private static func ensureOpen(_ scope: CallScope) throws(NetworkError) {
    if Task.isCancelled { throw .cancelled }
    if let reason = scope.endReason { throw reason }
  }

  private func context<Response>(
    for endpoint: Endpoint<Response>,
    attempt: Int,
    failures: [NetworkError]
  ) -> RequestContext {
    RequestContext(
      baseURL: baseURL,
      method: endpoint.method,
      path: endpoint.path,
      requiresAuthentication: endpoint.requiresAuthentication,
      isIdempotent: endpoint.isIdempotent,
      attempt: attempt,
      failures: failures
    )
  }

  private static let attemptLimit = 100
}
