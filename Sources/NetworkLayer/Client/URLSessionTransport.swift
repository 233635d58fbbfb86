import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs one `URLRequest` on a `URLSession` and bridges it to async/await with typed errors.
///
/// It uses a completion-handler data task rather than `URLSession.data(for:)` so that it owns
/// cancellation: when the calling task is cancelled, the data task is cancelled from another
/// queue. Cancelling it on the calling queue from inside the cancellation handler can deadlock
/// on swift-corelibs-foundation (issue 5412). Cancellation surfaces from Foundation either as
/// `CancellationError` or as `URLError(.cancelled)`; both become ``NetworkError/cancelled``.
///
/// Each task gets a delegate that strips `Authorization` from a redirect to another origin, so a
/// server cannot bounce a request, and the user's token with it, to a host of its choosing.
struct URLSessionTransport: Sendable {
  let session: URLSession
  let credentialOrigin: Origin

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let handle = DataTaskHandle()
    let result: Result<(Data, URLResponse), any Error> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let task = session.dataTask(with: request) { data, response, error in
          if let error {
            continuation.resume(returning: .failure(error))
          } else if let response {
            continuation.resume(returning: .success((data ?? Data(), response)))
          } else {
            continuation.resume(returning: .failure(URLError(.badServerResponse)))
          }
        }
        task.delegate = RedirectGuard(credentialOrigin: credentialOrigin)
        handle.start(task)
      }
    } onCancel: {
      handle.cancel()
    }

    switch result {
    case .success(let (data, response)):
      guard let http = response as? HTTPURLResponse else { throw .invalidResponse }
      return (data, http)
    case .failure(let error):
      if Task.isCancelled || error is CancellationError { throw .cancelled }
      guard let urlError = error as? URLError else { throw .transport(code: URLError.unknown.rawValue) }
      if urlError.code == .cancelled { throw .cancelled }
      throw .transport(code: urlError.code.rawValue)
    }
  }
}

/// Holds a data task so that cancellation, which may arrive before the task exists, reaches it.
private final class DataTaskHandle: Sendable {
  private enum State {
    case waiting
    case running(URLSessionDataTask)
    case cancelled
  }

  private let state = Locked(State.waiting)

  func start(_ task: URLSessionDataTask) {
    let wasCancelled = state.withLock { state in
      if case .cancelled = state { return true }
      state = .running(task)
      return false
    }
    task.resume()
    if wasCancelled { Self.cancelOffQueue(task) }
  }

  func cancel() {
    let task: URLSessionDataTask? = state.withLock { state in
      defer { state = .cancelled }
      if case .running(let task) = state { return task }
      return nil
    }
    if let task { Self.cancelOffQueue(task) }
  }

  private static func cancelOffQueue(_ task: URLSessionDataTask) {
    DispatchQueue.global().async { task.cancel() }
  }
}

/// Drops credentials from redirects that leave the API's origin.
private final class RedirectGuard: NSObject, URLSessionTaskDelegate, Sendable {
  private let credentialOrigin: Origin

  init(credentialOrigin: Origin) {
    self.credentialOrigin = credentialOrigin
  }

  func urlSession(
    _ session: URLSession,
    task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest,
    completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    guard !credentialOrigin.contains(request.url) else {
      completionHandler(request)
      return
    }
    var stripped = request
    stripped.setValue(nil, forHTTPHeaderField: "Authorization")
    completionHandler(stripped)
  }
}
