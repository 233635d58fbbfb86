/// Sends endpoints and returns their decoded responses.
///
/// The role every repository depends on. Implementations fail only with ``NetworkError`` and
/// stop their request when the calling task is cancelled, ending with ``NetworkError/cancelled``.
public protocol HTTPClient: Sendable {
  /// Sends `endpoint` and returns its decoded response.
  func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response

  /// Sends `endpoint` and returns its decoded response together with the status, the headers
  /// and the final URL of the HTTP response it came from. Validation, retries and errors are
  /// exactly those of ``send(_:)``, because it is that call underneath.
  func response<Response>(
    for endpoint: Endpoint<Response>
  ) async throws(NetworkError) -> HTTPResponse<Response>
}

extension HTTPClient {
  /// Sends the endpoint through ``send(_:)``, asking the response pipeline for its details
  /// too. A client that runs an endpoint's `decode` itself, without an HTTP response (a test
  /// fake), reports status 200, no headers and no URL.
  public func response<Response>(
    for endpoint: Endpoint<Response>
  ) async throws(NetworkError) -> HTTPResponse<Response> {
    try await send(endpoint.reportingMetadata())
  }
}
