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
final class DelegatingURLSession: Sendable {
  let session: URLSession
  /// Where the calls into ``session`` that wait for Foundation's work queue run.
  let calls = URLSessionCallQueues.shared
  /// Where this session's tasks start when they do not start on their caller's thread.
  private let starts = URLSessionCallQueues.shared.startLane()

  /// The configuration's cookie jar, when the transport sends cookies: kept by the transport.
  let jar: CookieJar?

  /// - Parameters:
  ///   - original: the caller's configuration (protocol classes, proxies, headers…).
  ///   - sendsCookies: whether the configuration's cookie jar is used at all.
  ///     The session itself never keeps cookies: corelibs parses every `Set-Cookie` it receives
  ///     unless its accept policy is `never`, even with no jar, and its date parser traps on
  ///     some expiry dates a server may send. With `sendsCookies`, ``CookieJar`` does the jar's
  ///     work instead. (corelibs also ignores a request's `httpShouldHandleCookies`.)
  init(configuration original: URLSessionConfiguration, sendsCookies: Bool) {
    jar = CookieJar(original, sendsCookies: sendsCookies)
    // A copy: the caller's configuration object may be shared with their own sessions.
    let configuration = (original.copy() as? URLSessionConfiguration) ?? original
    configuration.httpShouldSetCookies = false
    configuration.httpCookieStorage = nil
    configuration.httpCookieAcceptPolicy = .never
    let router = Router(calls: calls)
    session = URLSession(configuration: configuration, delegate: router, delegateQueue: Self.delegateQueue())
  }

  /// Where the callbacks run. On swift-corelibs-foundation, inline on its work queue (see
  /// ``InlineOperationQueue``): every queue of our own would cost a thread wake-up per callback.
  /// Elsewhere, a serial queue: Apple's Foundation needs no help, and its own queues' rules are
  /// not ours to bend.
  private static func delegateQueue() -> OperationQueue {
    #if canImport(FoundationNetworking)
      InlineOperationQueue()
    #else
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 1
      return queue
    #endif
  }

  /// Creates the task for `request` with `transfer` as its delegate and starts it through the
  /// transfer: on the caller's thread when it is the only live task of every client, otherwise
  /// on the session's start lane, and there only if the transfer has not ended while it waited.
  /// A start that waits keeps the session alive: once invalidated, it would trap at the creation
  /// of a task.
  func start(_ request: URLRequest, for transfer: Transfer) {
    guard calls.countTaskIn() else {
      calls.startWhenFree(on: starts) { [self] in
        guard transfer.isWaiting else {
          // Ended (deadline, cancellation) while it waited: no task is ever made for it.
          calls.taskEnded()
          return
        }
        makeTask(for: request, with: transfer)
      }
      return
    }
    makeTask(for: request, with: transfer)
    calls.startedHere()
  }

  private func makeTask(for request: URLRequest, with transfer: Transfer) {
    let task = session.dataTask(with: request)
    task.delegate = transfer
    transfer.start(task)
  }

  deinit {
    // A session keeps its delegate until it is invalidated; tasks in flight still finish.
    session.finishTasksAndInvalidate()
  }
}

/// Forwards each task's callbacks to the ``Transfer`` stored as the task's delegate.
private final class Router: NSObject, URLSessionDataDelegate, Sendable {
  private let calls: URLSessionCallQueues

  init(calls: URLSessionCallQueues) {
    self.calls = calls
  }

  func urlSession(
    _ session: URLSession,
    dataTask: URLSessionDataTask,
    didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let transfer = dataTask.delegate as? Transfer else {
      calls.runApart { completionHandler(.cancel) }
      return
    }
    transfer.urlSession(
      session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    (dataTask.delegate as? Transfer)?.urlSession(session, dataTask: dataTask, didReceive: data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    calls.taskEnded()
    (task.delegate as? Transfer)?.urlSession(session, task: task, didCompleteWithError: error)
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    guard let transfer = task.delegate as? Transfer else {
      calls.runApart { completionHandler(.performDefaultHandling, nil) }
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
