/// Cancels a request started with a completion handler.
public struct RequestHandle: Sendable {
  private let task: Task<Void, Never>

  /// Runs `work` in a task and hands its outcome to `completion`, once.
  init<Value>(
    _ work: @escaping @Sendable () async throws(NetworkError) -> Value,
    completion: @escaping @Sendable (Result<Value, NetworkError>) -> Void
  ) {
    task = Task {
      do throws(NetworkError) {
        completion(.success(try await work()))
      } catch {
        completion(.failure(error))
      }
    }
  }

  /// Cancels the request; its completion handler is called with ``NetworkError/cancelled``
  /// unless it has already been called.
  public func cancel() {
    task.cancel()
  }
}

extension HTTPClient {
  /// Sends `endpoint` and calls `completion` once, on an arbitrary thread, with what the async
  /// ``send(_:)`` gives, because it is that call underneath. For code that is not async yet.
  @discardableResult
  public func send<Response>(
    _ endpoint: Endpoint<Response>,
    completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
  ) -> RequestHandle {
    RequestHandle({ () async throws(NetworkError) in try await send(endpoint) }, completion: completion)
  }

  /// Sends `endpoint` and calls `completion` once with what the async ``response(for:)`` gives.
  @discardableResult
  public func response<Response>(
    for endpoint: Endpoint<Response>,
    completion: @escaping @Sendable (Result<HTTPResponse<Response>, NetworkError>) -> Void
  ) -> RequestHandle {
    RequestHandle(
      { () async throws(NetworkError) in try await response(for: endpoint) }, completion: completion)
  }
}
