import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request in flight: the delegate of its data task and the one place that decides how the
/// call ends.
///
/// The call ends exactly once, with whichever comes first: the complete response, a transport
/// failure, the size limit, an authentication challenge (which delivers its 401 response), or
/// its call's end (the deadline, or the caller's cancellation; see ``CallScope``). Everything
/// Foundation reports afterwards (typically the `URLError(.cancelled)` of a task this object
/// stopped) is ignored, so a cancellation the transport caused never reaches the caller as
/// ``NetworkError/cancelled``.
final class Transfer: NSObject, URLSessionDataDelegate, InterruptibleWait {
  /// How one task ended.
  enum Outcome: Sendable {
    /// The final response and its whole body.
    case response(Data, HTTPURLResponse)
    /// A redirect that repeats the request (see `RedirectRule`), which the transport sends
    /// itself, as a new task: Foundation would follow it with the right method but an empty
    /// body. `followed` counts every redirect of the attempt so far, this one included.
    case redirect(URLRequest, followed: Int)
    case failure(NetworkError)
  }

  private enum Phase {
    /// Created; the task does not exist yet.
    case waiting
    /// The task has been created and resumed.
    case running(URLSessionTask)
    /// The call has its outcome; nothing else may change it.
    case finished
  }

  private struct State {
    var phase = Phase.waiting
    var continuation: CheckedContinuation<Outcome, Never>?
    /// The outcome of a call that ended before it began to wait.
    var early: Outcome?
    var response: HTTPURLResponse?
    var body = Data()
    /// The body length the response announced, or `nil` when it did not (or announced more than
    /// is read).
    var announced: Int?
    /// The most of the body that is read: the limit, or for a status the endpoint does not accept,
    /// the start of it that an error needs.
    var bodyLimit: Int
    /// Whether the status is one the endpoint does not accept: reaching `bodyLimit` then ends the
    /// call with the response and the start of its body, not with `responseTooLarge`.
    var isErrorStatus = false
    var redirect: URLRequest?
    /// The redirects of the attempt followed so far, by earlier tasks and by this one.
    var followed: Int
  }

  private let state: Locked<State>
  private let originalRequest: URLRequest
  private let limit: Int
  private let acceptable: Range<Int>
  /// Whether a redirect is followed, or its response is the answer.
  private let followsRedirects: Bool
  /// Where the calls that cancel the task, or answer Foundation in a way that may cancel it, run.
  private let calls: URLSessionCallQueues
  /// The jar that keeps the cookies of every response, redirects included, if the transport has one.
  private let jar: CookieJar?
  /// Whether a redirect followed within the task carries the jar's cookies for its new URL.
  private let sendsJarCookies: Bool
  /// The most the body's buffer is sized for up front. An announced length is only a claim:
  /// reserved whole under a large limit, it would make the client allocate whatever a server
  /// announces and never sends (9 EB traps). A longer body grows the buffer as it arrives.
  private static let largestReservation = 16 * 1024 * 1024
  /// How much of the body of a status the endpoint does not accept is read: enough for an error
  /// message or a form's field errors, whatever the server goes on sending.
  static let errorBodyLimit = 64 * 1024

  /// Creates the delegate of one task, of an attempt whose earlier tasks followed `followed`
  /// redirects.
  init(
    originalRequest: URLRequest, maximumResponseSize: Int, acceptableStatusCodes: Range<Int>,
    followsRedirects: Bool, followed: Int, calls: URLSessionCallQueues, jar: CookieJar?,
    sendsJarCookies: Bool
  ) {
    state = Locked(State(bodyLimit: maximumResponseSize, followed: followed))
    self.originalRequest = originalRequest
    self.limit = maximumResponseSize
    self.acceptable = acceptableStatusCodes
    self.followsRedirects = followsRedirects
    self.calls = calls
    self.jar = jar
    self.sendsJarCookies = sendsJarCookies
  }

  /// Takes the continuation to resume with the outcome. Returns `false`, having resumed it, when
  /// the call ended before the task was even created.
  func begin(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
    let early = state.withLock { state -> Outcome? in
      if case .finished = state.phase { return state.early ?? .failure(.cancelled) }
      state.continuation = continuation
      return nil
    }
    if let early { continuation.resume(returning: early) }
    return early == nil
  }

  /// Whether the call still waits for a task: it has neither ended nor been given one.
  var isWaiting: Bool {
    state.withLock { state in
      if case .waiting = state.phase { return true }
      return false
    }
  }

  /// Resumes `task`, unless the call ended meanwhile: a task whose caller has already gone is
  /// cancelled without ever being resumed, so no request leaves for nobody.
  func start(_ task: URLSessionTask) {
    let shouldResume = state.withLock { state in
      guard case .waiting = state.phase else { return false }
      state.phase = .running(task)
      return true
    }
    if shouldResume {
      task.resume()
    } else {
      // Cancelling a task that was never resumed removes it from its session without sending.
      calls.runApart { task.cancel() }
    }
  }

  /// The call ended (deadline or cancellation): ends the transfer now and stops the task.
  func interrupt(_ reason: NetworkError) {
    finish(.failure(reason))
  }

  // MARK: URLSessionDataDelegate

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let http = response as? HTTPURLResponse
    if let http, !ResponseFraming.isTrustworthy(http) {
      refuse(.transport(code: URLError.cannotParseResponse.rawValue), completionHandler)
      return
    }
    if let http { jar?.keepCookies(from: http) }
    let announced = response.expectedContentLength
    let isErrorStatus = http.map { !acceptable.contains($0.statusCode) } ?? false
    let tooLarge = state.withLock { state in
      state.response = http
      if isErrorStatus {
        // An error status wins over its body's size: its start is read, the rest dropped.
        state.isErrorStatus = true
        state.bodyLimit = min(limit, Self.errorBodyLimit)
      } else if announced > Int64(limit) {
        // A response announced as too large is refused before a byte of its body is stored.
        return true
      }
      state.announced = announced > 0 && announced <= Int64(state.bodyLimit) ? Int(announced) : nil
      return false
    }
    if tooLarge {
      refuse(.responseTooLarge(limit: limit), completionHandler)
    } else {
      completionHandler(.allow)
    }
  }

  /// Ends the call with `failure` before any of the body is read.
  private func refuse(
    _ failure: NetworkError,
    _ completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    finish(.failure(failure))
    calls.runApart { completionHandler(.cancel) }
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let (tooLarge, errorResponse) = state.withLock { state -> (Bool, (Data, HTTPURLResponse)?) in
      guard case .running = state.phase else { return (false, nil) }
      guard state.body.count + data.count <= state.bodyLimit else {
        guard state.isErrorStatus, let response = state.response else { return (true, nil) }
        state.body.append(data.prefix(state.bodyLimit - state.body.count))
        return (false, (state.body, response))
      }
      if state.body.isEmpty, data.count == state.announced ?? data.count {
        // The whole body in one chunk, as a small response arrives: kept as it is, not copied.
        state.body = data
      } else {
        // A body in pieces is stored in a buffer sized once, so growing it never holds two copies.
        if state.body.isEmpty, let announced = state.announced {
          state.body.reserveCapacity(min(announced, Self.largestReservation))
        }
        state.body.append(data)
      }
      return (false, nil)
    }
    if tooLarge { finish(.failure(.responseTooLarge(limit: limit))) }
    if let (body, response) = errorResponse { finish(.response(body, response), stoppingTheTask: true) }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    if let error {
      let (head, received) = state.withLock { ($0.response, $0.body.count) }
      finish(
        .failure(
          TransportFailure.reason(for: error, url: task.currentRequest?.url, head: head, received: received)))
      return
    }
    let (response, body, redirect, followed) = state.withLock {
      ($0.response ?? task.response as? HTTPURLResponse, $0.body, $0.redirect, $0.followed)
    }
    if let redirect {
      finish(.redirect(redirect, followed: followed))
    } else if let response {
      finish(.response(body, response))
    } else {
      finish(.failure(.invalidResponse))
    }
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    guard Self.isHTTPAuthentication(challenge.protectionSpace.authenticationMethod) else {
      // Server trust and client certificates are the system's business.
      completionHandler(.performDefaultHandling, nil)
      return
    }
    // The client never answers a challenge with a credential: the 401 goes to the interceptors,
    // which know what to do with it. Delivering it here, before the task is cancelled, is what
    // keeps the cancellation from reaching the caller.
    let (stored, body) = state.withLock { ($0.response, $0.body) }
    if let response = (challenge.failureResponse as? HTTPURLResponse) ?? stored {
      finish(.response(body, response))
    } else {
      finish(.failure(.invalidResponse))
    }
    calls.runApart { completionHandler(.cancelAuthenticationChallenge, nil) }
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    // `nil` makes Foundation end the task with the redirect response and its body.
    guard followsRedirects else { return completionHandler(nil) }
    jar?.keepCookies(from: response)
    let redirect: (request: URLRequest, repeats: Bool)?
    do throws(NetworkError) {
      // Counted here for every status: Foundation follows a redirect that goes on as a GET
      // within the task, up to a limit of its own; the transport sends a repeat as a new task.
      let followed = state.withLock { state in
        state.followed += 1
        return state.followed
      }
      guard followed <= RedirectRule.maximumRedirects else {
        throw .transport(code: URLError.httpTooManyRedirects.rawValue)
      }
      redirect = try RedirectRule.request(following: response, from: originalRequest, proposed: request)
    } catch {
      finish(.failure(error))
      completionHandler(nil)
      return
    }
    guard let (proposed, repeatsRequest) = redirect else {
      // Not followed: Foundation ends the task with the redirect response and its body.
      completionHandler(nil)
      return
    }
    var next = proposed
    if sendsJarCookies { jar?.setCookies(on: &next) }
    state.withLock { state in
      // What was read for the redirect's own response does not carry over to the next one.
      state.response = nil
      state.body = Data()
      state.isErrorStatus = false
      state.bodyLimit = limit
      if repeatsRequest { state.redirect = next }
    }
    // `nil` makes Foundation end this task with the redirect response; the transport then sends
    // `next` as a task of its own, body included.
    completionHandler(repeatsRequest ? nil : next)
  }

  // MARK: Ending

  /// Ends the call with `outcome` unless it has already ended, and stops a running task that has
  /// failed or that `stoppingTheTask` says to stop (the start of an error body is all it needs).
  private func finish(_ outcome: Outcome, stoppingTheTask: Bool = false) {
    let (continuation, task) = state.withLock {
      state -> (CheckedContinuation<Outcome, Never>?, URLSessionTask?) in
      if case .finished = state.phase { return (nil, nil) }
      var task: URLSessionTask?
      if case .running(let running) = state.phase { task = running }
      state.phase = .finished
      state.redirect = nil
      if state.continuation == nil { state.early = outcome }
      defer { state.continuation = nil }
      // The body is handed over (or dropped) now, so a stopped flood frees its memory at once.
      state.body = Data()
      state.response = nil
      return (state.continuation, task)
    }
    continuation?.resume(returning: outcome)
    // A task that completed on its own needs no cancelling; cancelling it anyway is harmless.
    let stops: Bool
    if case .failure = outcome { stops = true } else { stops = stoppingTheTask }
    if let task, stops { calls.runApart { task.cancel() } }
  }

  private static func isHTTPAuthentication(_ method: String) -> Bool {
    #if canImport(FoundationNetworking)
      // swift-corelibs-foundation raises no server-trust or client-certificate challenges.
      true
    #else
      method != NSURLAuthenticationMethodServerTrust && method != NSURLAuthenticationMethodClientCertificate
    #endif
  }
}
