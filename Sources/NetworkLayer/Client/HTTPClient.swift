/// Sends endpoints and returns their decoded responses.
///
/// The role every repository depends on. Implementations fail only with ``NetworkError`` and
/// stop their request when the calling task is cancelled, ending with ``NetworkError/cancelled``.
public protocol HTTPClient: Sendable {
  /// Sends `endpoint` and returns its decoded response.
  func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response
}
