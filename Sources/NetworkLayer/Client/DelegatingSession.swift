import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A session whose every task reports to its own ``Transfer``.
///
/// swift-corelibs-foundation streams a task's body to a delegate only when the delegate is the
/// session's: a task delegate set with `task.delegate` gets redirects and challenges but no
/// data, and the completion-handler variants buffer the whole body before anyone can count it.
/// So the transport runs its requests on a session of its own, built from the caller's
/// configuration, whose delegate hands each callback to the task's ``Transfer``.
final class DelegatingSession: Sendable {
  let session: URLSession

  /// - Parameters:
  ///   - original: the caller's configuration (protocol classes, proxies, headers…).
  ///   - sendsCookies: whether the configuration's cookie jar is used at all.
  ///     swift-corelibs-foundation ignores a request's `httpShouldHandleCookies`, so without
  ///     it the jar is removed from the session.
  init(configuration original: URLSessionConfiguration, sendsCookies: Bool) {
    // A copy: the caller's configuration object may be shared with their own sessions.
    let configuration = (original.copy() as? URLSessionConfiguration) ?? original
    if !sendsCookies {
      configuration.httpShouldSetCookies = false
      configuration.httpCookieStorage = nil
    }
    // A serial queue running on a plain dispatch queue: corelibs' default delegate queue costs
    // ~100 µs more per request (three callbacks each), which made the delegate-based transport
    // dearer than the completion-handler one; on this queue it is no dearer.
    // `underlyingQueue` does not retain its queue; the router, which the session keeps until
    // its last task has finished, does.
    let router = Router()
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.underlyingQueue = router.callbackQueue
    session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
  }

  deinit {
    // A session keeps its delegate until it is invalidated; tasks in flight still finish.
    session.finishTasksAndInvalidate()
  }
}

/// Forwards each task's callbacks to the ``Transfer`` stored as the task's delegate.
private final class Router: NSObject, URLSessionDataDelegate, Sendable {
  /// The dispatch queue under the session's delegate queue.
  let callbackQueue = DispatchQueue(label: "URLSessionTransport.delegate")

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let transfer = dataTask.delegate as? Transfer else {
      completionHandler(.cancel)
      return
    }
    transfer.urlSession(
      session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    (dataTask.delegate as? Transfer)?.urlSession(session, dataTask: dataTask, didReceive: data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    (task.delegate as? Transfer)?.urlSession(session, task: task, didCompleteWithError: error)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    guard let transfer = task.delegate as? Transfer else {
      completionHandler(.performDefaultHandling, nil)
      return
    }
    transfer.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard let transfer = task.delegate as? Transfer else {
      completionHandler(request)
      return
    }
    transfer.urlSession(
      session, task: task, willPerformHTTPRedirection: response, newRequest: request,
      completionHandler: completionHandler)
  }
}
