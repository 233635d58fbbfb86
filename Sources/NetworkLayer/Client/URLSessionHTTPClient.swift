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
    // Numbering and timing a call are for monitors; without one they are not worth a lock.
    let call = monitors.isEmpty ? nil : Call.start(monitors: monitors)
    let deadline = endpoint.deadline.map(DeadlineLength.init) ?? defaultDeadline
    let scope = CallScope()
    // Ended before the first attempt is built, so nothing is sent and monitors see the call fail.
    if deadline.hasPassed { scope.end(.timeout) }
    let timer = DeadlineTimer.start(after: deadline, on: clock) { scope.end(.timeout) }
    // Released as soon as the call ends, not when the deadline would have passed.
    defer { timer.cancel() }
    // The value comes back as the operation's result and a failure as its error, not as a
    // `Result` of the caller's type, whose metadata this generic code would look up at run time
    // on every call. The operation throws untyped, as `withTaskCancellationHandler` rethrows:
    // a typed one would be wrapped in a conversion that costs more than the look-up.
    let value: Response
    do {
      value = try await withTaskCancellationHandler { () async throws -> Response in
        let value: Response
        do throws(NetworkError) {
          value = try await perform(
            endpoint, call: call, transportTimeout: deadline.transportTimeout, scope: scope)
        } catch {
          throw scope.close() ?? error
        }
        // Whichever came first wins: the value, or the deadline that fired while it was decoded.
        if let reason = scope.close() { throw reason }
        return value
      } onCancel: {
        scope.end(.cancelled)
      }
    } catch {
      // The caller's cancellation wins over whatever the cancelled work reported. The operation
      // throws nothing but `NetworkError`s, so the cast always succeeds.
      let failure = Task.isCancelled ? .cancelled : (error as? NetworkError ?? .cancelled)
      call?.failed(endpoint, with: failure)
      throw failure
    }
    call?.succeeded(endpoint)
    return value
  }

  /// Runs attempts until one succeeds or the interceptors stop retrying.
  ///
  /// It runs in the caller's task; every wait in it (interceptors, the request, a retry's pause)
  /// goes through `scope`, which ends that wait at once at the deadline or on cancellation.
  private func perform<Response>(
    _ endpoint: Endpoint<Response>,
    call: Call?,
    transportTimeout: TimeInterval,
    scope: CallScope
  ) async throws(NetworkError) -> Response {
    var failures: [NetworkError] = []
    var attempt = 1
    while true {
      try Self.ensureOpen(scope)
      var request = try builder.makeRequest(for: endpoint)
      request.timeoutInterval = transportTimeout
      // Set while the request is not yet shared, so the transport need not change it later,
      // which would copy the whole request object underneath.
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
  @inline(never)
  private func prepareRetry<Response>(
    after failure: AttemptFailure,
    for endpoint: Endpoint<Response>,
    attempt: Int,
    failures: inout [NetworkError],
    call: Call?,
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

  // `adapt`, `prepareRetry` and `pause` are never inlined into `perform`, and the first two build
  // the interceptors' context themselves: what an async function holds stays in its task's
  // allocator while it runs, and values of the Concurrency library's types, whose sizes are
  // known only at run time, are allocated on every entry, whether or not the branch that uses
  // them runs. Most calls have no interceptor and never retry.

  /// `request` as every interceptor has adapted it, in order, checked again for what may not go
  /// on the wire.
  @inline(never)
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
  @inline(never)
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

extension URLSessionHTTPClient {
  /// One call as its monitors see it: its number, its timing, the latest attempt's summary, and
  /// the events it reports. Made only when there are monitors.
  ///
  /// The client's async code reaches the monitors only through these methods, and none of them
  /// is inlined into it. An async function keeps its values in its task's allocator for as long
  /// as it runs: the events and summaries built there (with the interceptors' and the retry's
  /// waits, now in functions of their own) made `perform`'s frame 2.9 KB, which a task that sends
  /// one request (a view model's work) had to allocate slabs for on every call, monitor or not.
  /// And a `ContinuousClock.Instant`, whose size is known only at run time, would be allocated on
  /// every call as well; times are kept here as `Duration`s since the start.
  private final class Call: Sendable {
    private struct State {
      var summary: RequestSummary?
      /// When the latest attempt was sent, since the call's start.
      var sentAt = Duration.zero
    }

    private let id: Int
    private let started: ContinuousClock.Instant
    private let monitors: [any NetworkEventMonitor]
    private let state = Locked(State())

    private init(id: Int, started: ContinuousClock.Instant, monitors: [any NetworkEventMonitor]) {
      self.id = id
      self.started = started
      self.monitors = monitors
    }

    /// A call that starts now, with the next number.
    @inline(never)
    static func start(monitors: [any NetworkEventMonitor]) -> Call {
      Call(id: CallCounter.next(), started: .now, monitors: monitors)
    }

    /// Reports attempt number `attempt`, about to send `request`. Redacting the request costs
    /// microseconds, which is why a call without monitors has no `Call`.
    @inline(never)
    func attemptStarted(_ attempt: Int, request: URLRequest) {
      let summary = RequestSummary(callID: id, attempt: attempt, request: request)
      let elapsed = elapsed
      state.withLock { state in
        state.summary = summary
        state.sentAt = elapsed
      }
      report(.requestStarted(summary))
    }

    @inline(never)
    func responseReceived(_ response: HTTPURLResponse, bodyByteCount: Int) {
      let (summary, sentAt) = state.withLock { ($0.summary, $0.sentAt) }
      guard let summary else { return }
      report(
        .responseReceived(
          summary, status: response.statusCode, bodyByteCount: bodyByteCount, duration: elapsed - sentAt))
    }

    @inline(never)
    func retrying(after reason: NetworkError, delay: Duration) {
      guard let summary = state.withLock({ $0.summary }) else { return }
      report(.retrying(summary, reason: reason, delay: delay))
    }

    @inline(never)
    func succeeded<Response>(_ endpoint: Endpoint<Response>) {
      report(.succeeded(latestSummary(endpoint), duration: elapsed))
    }

    @inline(never)
    func failed<Response>(_ endpoint: Endpoint<Response>, with failure: NetworkError) {
      report(.failed(latestSummary(endpoint), failure, duration: elapsed))
    }

    private var elapsed: Duration {
      ContinuousClock.now - started
    }

    /// The latest attempt's summary or, for a call that failed before its first attempt was
    /// built, one made from the endpoint.
    private func latestSummary<Response>(_ endpoint: Endpoint<Response>) -> RequestSummary {
      state.withLock { $0.summary }
        ?? RequestSummary(callID: id, attempt: 0, method: endpoint.method.rawValue, path: endpoint.path)
    }

    private func report(_ event: NetworkEvent) {
      for monitor in monitors { monitor.record(event) }
    }
  }

  /// Numbers calls so that every attempt of one call can be grouped in logs.
  private enum CallCounter {
    private static let counter = Locked(0)

    static func next() -> Int {
      counter.withLock { value in
        value += 1
        return value
      }
    }
  }
}
