public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// An ``HTTPClient`` that sends requests with `URLSession`, or with another ``HTTPTransport``.
///
/// Every call runs one pipeline: build the request (``Endpoint/urlRequest(relativeTo:)``) → let
/// each interceptor adapt it → send it → validate and decode; when an attempt fails, the
/// interceptors decide in order whether to retry (see ``RequestInterceptor``). Every failure is a
/// typed ``NetworkError``, the whole call ends within its deadline or at its caller's
/// cancellation, and credentials go only to the base URL's origin: <doc:NetworkingGuarantees>
/// lists each guarantee with its test.
public struct URLSessionHTTPClient: HTTPClient {
  private let baseURL: URL
  /// The base URL taken apart once, for building every request; `nil` when it is not http(s).
  private let baseParts: BaseURLParts?
  private let transport: ClientTransport
  private let interceptors: [any RequestInterceptor]
  private let monitors: [any NetworkEventMonitor]
  private let defaultDeadline: DeadlineLength
  private let maximumResponseSize: Int
  private let refusalFormat: RefusalFormat
  private let clock: any Clock<Duration>

  /// Creates a client for the API at `baseURL` (its own path kept) that sends through
  /// `transport`, adapting and retrying with `interceptors` in order. `defaultDeadline` and
  /// `maximumResponseSize` apply to endpoints that set none; `refusalFormat` reads why the API
  /// refused a request; `clock` times deadlines and retry waits (tests pass a manual one).
  public init(
    baseURL: URL,
    transport: any HTTPTransport,
    interceptors: [any RequestInterceptor] = [],
    monitors: [any NetworkEventMonitor] = [],
    defaultDeadline: Duration = .seconds(60),
    clock: any Clock<Duration> = ContinuousClock(),
    maximumResponseSize: Int = URLSessionHTTPClient.defaultMaximumResponseSize,
    refusalFormat: RefusalFormat = .standard
  ) {
    self.baseURL = baseURL
    self.baseParts = BaseURLParts(baseURL)
    self.transport = ClientTransport(transport)
    self.interceptors = interceptors
    self.monitors = monitors
    self.defaultDeadline = DeadlineLength(defaultDeadline)
    self.maximumResponseSize = maximumResponseSize
    self.refusalFormat = refusalFormat
    self.clock = clock
  }

  /// Creates a client that sends with `session`'s configuration (the shared session's unless
  /// given), as `URLSessionTransport(session: session, sendsCookies: sendsCookies)` would.
  public init(
    baseURL: URL,
    session: URLSession = .shared,
    interceptors: [any RequestInterceptor] = [],
    monitors: [any NetworkEventMonitor] = [],
    defaultDeadline: Duration = .seconds(60),
    clock: any Clock<Duration> = ContinuousClock(),
    maximumResponseSize: Int = URLSessionHTTPClient.defaultMaximumResponseSize,
    refusalFormat: RefusalFormat = .standard,
    sendsCookies: Bool = false
  ) {
    self.init(
      baseURL: baseURL, transport: URLSessionTransport(session: session, sendsCookies: sendsCookies),
      interceptors: interceptors, monitors: monitors, defaultDeadline: defaultDeadline, clock: clock,
      maximumResponseSize: maximumResponseSize, refusalFormat: refusalFormat)
  }

  /// Sends `endpoint` through the interceptors, with retries, within its deadline, and returns
  /// its decoded response. Throws ``NetworkError/timeout`` at the deadline,
  /// ``NetworkError/cancelled`` when the caller is cancelled, or the last attempt's error (or
  /// the one an interceptor chose). A retry whose wait would reach the deadline is not waited
  /// for: the call ends at once with the last attempt's error.
  public func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
    let call = monitors.isEmpty ? nil : MonitoredCall.start(monitors: monitors, baseURL: baseURL)
    let deadline = endpoint.request.deadline.map(DeadlineLength.init) ?? defaultDeadline
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
          endpoint, call: call, transportTimeout: deadline.transportTimeout, scope: scope, timer: timer)
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
  /// `timer` is the deadline's, which says how much time is left for a retry.
  private func perform<Response>(
    _ endpoint: Endpoint<Response>,
    call: MonitoredCall?,
    transportTimeout: TimeInterval,
    scope: CallScope,
    timer: DeadlineTimer
  ) async throws(NetworkError) -> Response {
    var failures: [NetworkError] = []
    var attempt = 1
    while true {
      try Self.ensureOpen(scope)
      var request = try endpoint.urlRequest(relativeTo: baseURL, parts: baseParts)
      request.timeoutInterval = transportTimeout
      request.httpShouldHandleCookies = transport.sendsCookies
      if !interceptors.isEmpty {
        request = try await adapt(request, for: endpoint, attempt: attempt, failures: failures, scope: scope)
      }
      // Adapting may have waited (for a token refresh) past the caller's cancellation or the
      // deadline; such a request must never reach the wire.
      try Self.ensureOpen(scope)

      call?.attemptStarted(attempt, request: request, credentials: endpoint.request.credentials)
      let failure: AttemptFailure
      do throws(NetworkError) {
        let (body, response) = try await transport.send(
          request, maximumResponseSize: endpoint.request.maximumResponseSize ?? maximumResponseSize,
          acceptableStatusCodes: endpoint.request.acceptableStatusCodes,
          followsRedirects: endpoint.request.followsRedirects, scope: scope)
        call?.responseReceived(response, bodyByteCount: body.count)
        do throws(NetworkError) {
          return try endpoint.value(in: body, response: response, request: request, refusals: refusalFormat)
        } catch {
          failure = AttemptFailure(error: error, request: request, response: response)
        }
      } catch {
        failure = AttemptFailure(error: error, request: request, response: nil)
      }

      try await prepareRetry(
        after: failure, for: endpoint, attempt: attempt, failures: &failures, call: call, scope: scope,
        timer: timer)
      attempt += 1
      // A guard against an interceptor that says "retry" forever; real policies stop far earlier.
      if attempt > Self.attemptLimit { throw failure.error }
    }
  }

  /// Returns once the attempt that failed with `failure` may be repeated, having waited for the
  /// retry's delay; throws the error the call ends with otherwise. A delay that would reach the
  /// deadline is not waited for: no retry could follow it, so the call ends at once with
  /// `failure`'s error, the server's real answer, instead of a timeout later.
  private func prepareRetry<Response>(
    after failure: AttemptFailure,
    for endpoint: Endpoint<Response>,
    attempt: Int,
    failures: inout [NetworkError],
    call: MonitoredCall?,
    scope: CallScope,
    timer: DeadlineTimer
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
      if delay >= timer.timeLeft { throw failure.error }
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
    try HeaderSyntax.validate(request)
    return request
  }

  /// Waits `delay`, which ends before the call's deadline, on the client's clock before a retry.
  private func pause(for delay: Duration, scope: CallScope) async throws(NetworkError) {
    let clock = self.clock
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
    for endpoint: Endpoint<Response>, attempt: Int, failures: [NetworkError]
  ) -> RequestContext {
    let request = endpoint.request
    return RequestContext(
      baseURL: baseURL, method: request.method, path: request.path,
      requiresAuthentication: request.requiresAuthentication, isIdempotent: request.isIdempotent,
      attempt: attempt, failures: failures)
  }

  private static let attemptLimit = 100
}
