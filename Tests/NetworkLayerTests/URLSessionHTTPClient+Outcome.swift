import NetworkLayer

extension URLSessionHTTPClient {
  /// The call's outcome as a value, so tables of outcomes can be compared.
  func outcome<Response>(_ endpoint: Endpoint<Response>) async -> Result<Response, NetworkError> {
    do throws(NetworkError) {
      return .success(try await send(endpoint))
    } catch {
      return .failure(error)
    }
  }
}
