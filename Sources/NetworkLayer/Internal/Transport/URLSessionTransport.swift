public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// The ``HTTPTransport`` that runs each request on a `URLSession`, with typed errors.
///
/// Each request gets a `Transfer` as its task delegate, which owns everything Foundation's
/// convenience APIs would decide on their own:
/// - the body is counted while it arrives; a body larger than the limit (announced by
///   `Content-Length` or only discovered while streaming) ends the call at once with
///   ``NetworkError/responseTooLarge(limit:)`` and drops what arrived, so the client never holds
///   more than the limit of body, whatever the server sends. The data task is cancelled at the
///   same moment, but on Linux the connection closes only when swift-corelibs-foundation gets to
///   that cancel: it ignores a `.cancel` response disposition, and queues the cancel behind the
///   reads of a socket that stays readable, so a flooding server may write much more. That is
///   read and discarded chunk by chunk, never stored, so the process grows by about the limit
///   whatever the server writes (the performance article has the measurement). Below the limit
///   the body is held whole until the response ends or the call's deadline passes, so the limit
///   is what bounds memory;
/// - an authentication challenge (`WWW-Authenticate: Basic`, `Digest`, or any other scheme) is
///   answered by delivering the 401 response itself, at once. Left to swift-corelibs-foundation,
///   such a 401 never completes (issue 5456), so the auth interceptor would never see it;
/// - a redirect goes to the URL its `Location` names, resolved as RFC 3986 says, and only to an
///   http(s) URL; it carries no credential header once it leaves the request's origin, a 307 or
///   308, or a 301 or 302 after a `PUT`, `PATCH` or `DELETE`, keeps the method and the body (but
///   is not followed to another origin with a body that holds credentials), and an attempt
///   follows at most 20 (see `RedirectRule`);
/// - the end of the call (its deadline, or its caller's cancellation, through its `CallScope`)
///   ends the transfer at once with that reason, without waiting for Foundation to confirm. The
///   data task is cancelled on a queue of `URLSessionCallQueues`: cancelling it on the calling
///   queue from inside the cancellation handler can deadlock on swift-corelibs-foundation (issue
///   5412). A task whose call ended before it started is never resumed, and one whose call ended
///   while it waited to start is never created;
/// - no thread of Swift's cooperative pool waits for Foundation's work queue while a task of any
///   client in the process is in flight (on swift-corelibs-foundation, a body streaming in keeps
///   that queue busy, and creating, resuming and cancelling tasks wait for it): those calls then
///   happen on queues of `URLSessionCallQueues`, so the deadline holds however busy the clients
///   are.
///
/// Requests run on a session of the transport's own, built from the given session's
/// configuration (see `DelegatingURLSession`); the given session's delegate is not consulted.
///
/// When the transport itself stops a task (size limit, challenge), the call ends with that
/// reason, never with ``NetworkError/cancelled``, which always means the caller cancelled.
public struct URLSessionTransport: HTTPTransport {
  private let delegating: DelegatingURLSession
  /// Whether the session's cookie jar may add its cookies to requests.
  let sendsCookies: Bool

  /// Creates a transport that sends requests with `session`'s configuration.
  ///
  /// - Parameters:
  ///   - session: the session whose configuration (protocol classes, proxies, TLS, headers)
  ///     the requests use, by default the shared session's; its delegate is not consulted.
  ///   - sendsCookies: whether the session's cookie jar keeps the cookies answers set and adds
  ///     them to requests (at every redirect) that set no `Cookie` field of their own. Off by
  ///     default: an API client sends what its endpoints and interceptors say, nothing else, and
  ///     no `Set-Cookie` is parsed. On, the transport keeps the jar itself, reading only
  ///     `Set-Cookie` lines that are all ASCII: Foundation on Linux would parse every one, and its
  ///     date parser stops the process on some expiry dates a server may send.
  public init(session: URLSession = .shared, sendsCookies: Bool = false) {
    self.delegating = DelegatingURLSession(configuration: session.configuration, sendsCookies: sendsCookies)
    self.sendsCookies = sendsCookies
  }

  /// Sends `request` on its own, without a client: no deadline but its task's cancellation, the
  /// default response size limit, and credentials kept to the request's own origin.
  public func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let scope = CallScope()
    return try await withTaskCancellationHandler {
      () async -> Result<(Data, HTTPURLResponse), NetworkError> in
      do throws(NetworkError) {
        let limit = URLSessionHTTPClient.defaultMaximumResponseSize
        return .success(try await send(request, maximumResponseSize: limit, scope: scope))
      } catch {
        return .failure(error)
      }
    } onCancel: {
      scope.end(.cancelled)
    }.get()
  }

  /// Sends `request` and returns the whole body and the response.
  ///
  /// - Parameters:
  ///   - request: the request as the interceptors adapted it.
  ///   - maximumResponseSize: the body limit for this request.
  ///   - acceptableStatusCodes: the statuses the endpoint accepts. The body of any other status
  ///     is read only up to `Transfer.errorBodyLimit` and returned with its response, however
  ///     large it is, so an error status is reported as one with its excerpt, never as
  ///     ``NetworkError/responseTooLarge(limit:)``.
  ///   - followsRedirects: whether a redirect is followed, or its response is the answer.
  ///   - scope: the call the request belongs to; its end ends the request.
  /// - Returns: the body (whole, or the start of an error body) and the HTTP response; a
  ///   challenged 401 is such a response.
  /// - Throws: ``NetworkError/responseTooLarge(limit:)`` past the limit,
  ///   the scope's reason (``NetworkError/timeout`` or ``NetworkError/cancelled``) when the call
  ///   ends first, and
  ///   ``NetworkError/transport(code:)`` for what Foundation reports.
  func send(
    _ request: URLRequest,
    maximumResponseSize: Int,
    acceptableStatusCodes: Range<Int> = 200..<300,
    followsRedirects: Bool = true,
    scope: CallScope
  ) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    var request = request
    // An interceptor may have changed it; usually it is as the client set it.
    if request.httpShouldHandleCookies != sendsCookies { request.httpShouldHandleCookies = sendsCookies }
    // A request that sets its own `Cookie` field sends that one, at every hop; the jar still
    // keeps what the answers set.
    let sendsJarCookies = delegating.jar != nil && request.value(forHTTPHeaderField: "Cookie") == nil
    let limit = max(0, maximumResponseSize)
    var followed = 0
    while true {
      if sendsJarCookies { delegating.jar?.setCookies(on: &request) }
      switch await run(
        request, limit: limit, acceptable: acceptableStatusCodes, follows: followsRedirects,
        followed: followed, sendsJarCookies: sendsJarCookies,
        scope: scope)
      {
      case .response(let body, let response):
        return (body, response)
      case .failure(let error):
        throw error
      case .redirect(let next, let count):
        followed = count
        request = next
      }
    }
  }

  /// Runs one data task for `request`, unless `scope` has ended; `followed` redirects of the
  /// attempt came before it.
  private func run(
    _ request: URLRequest, limit: Int, acceptable: Range<Int>, follows: Bool, followed: Int,
    sendsJarCookies: Bool, scope: CallScope
  ) async -> Transfer.Outcome {
    let transfer = Transfer(
      originalRequest: request,
      maximumResponseSize: limit,
      acceptableStatusCodes: acceptable,
      followsRedirects: follows,
      followed: followed,
      calls: delegating.calls,
      jar: delegating.jar,
      sendsJarCookies: sendsJarCookies
    )
    if let reason = scope.enter(transfer) { return .failure(reason) }
    defer { scope.leave(transfer) }
    return await withCheckedContinuation { continuation in
      guard transfer.begin(continuation) else { return }
      delegating.start(request, for: transfer)
    }
  }
}
