/// Cancels a request started with a completion handler.
public struct RequestHandle: Sendable {
  private let task: Task<Void, Never>

  init(task: Task<Void, Never>) {
    self.task = task
  }

  /// Cancels the request; its completion handler is called with ``NetworkError/cancelled``
  /// unless it has already been called.
  public func cancel() {
    task.cancel()
  }
}

extension HTTPClient {
  /// Sends `endpoint` and calls `completion` once with the outcome: the same value or the same
  /// ``NetworkError`` the async ``send(_:)`` gives, because it is that call underneath.
  ///
  /// For code that is not async yet. `completion` runs on an arbitrary thread.
  @discardableResult
  public func send<Response>(
    _ endpoint: Endpoint<Response>,
    completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
  ) -> RequestHandle {
    RequestHandle(
      task: Task {
        do throws(NetworkError) {
          completion(.success(try await send(endpoint)))
        } catch {
          completion(.failure(error))
        }
      }
    )
  }
}

extension HTTPClient {
  /// Sends `endpoint` and calls `completion` once with the value and its response's details:
  /// the outcome of the async ``response(for:)``, because it is that call underneath.
  @discardableResult
  public func response<Response>(
    for endpoint: Endpoint<Response>,
    completion: @escaping @Sendable (Result<HTTPResponse<Response>, NetworkError>) -> Void
  ) -> RequestHandle {
    RequestHandle(
      task: Task {
        do throws(NetworkError) {
          completion(.success(try await response(for: endpoint)))
        } catch {
          completion(.failure(error))
        }
      }
    )
  }
}
