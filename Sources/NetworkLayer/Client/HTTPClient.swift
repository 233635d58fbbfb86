/// Sends endpoints and returns their decoded responses.
///
/// The role every repository depends on. Implementations fail only with ``NetworkError`` and
/// stop their request when the calling task is cancelled, ending with ``NetworkError/cancelled``.
public protocol HTTPClient: Sendable {
  /// Sends `endpoint` and returns its decoded response.
  func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response

  /// Sends `endpoint` and returns its decoded response together with the status, the headers
  /// and the final URL of the HTTP response it came from. Validation, retries and errors are
  /// exactly those of ``send(_:)``.
  func response<Response>(
    for endpoint: Endpoint<Response>
  ) async throws(NetworkError) -> HTTPResponse<Response>
}

extension HTTPClient {
  /// The value of ``response(for:)``: a client need only implement that.
  public func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
    try await response(for: endpoint).value
  }
}
