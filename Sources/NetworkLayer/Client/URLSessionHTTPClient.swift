public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// An ``HTTPClient`` that sends requests with `URLSession`.
///
/// One request goes through: build (``RequestBuilder``) → send (``URLSessionTransport``) →
/// validate status and content type → decode with the endpoint's decoder. Every failure on the
/// way is a ``NetworkError``.
public struct URLSessionHTTPClient: HTTPClient {
  private let builder: RequestBuilder
  private let transport: URLSessionTransport
  private let validator = ResponseValidator()

  /// Creates a client for the API at `baseURL`, sending through `session`.
  public init(baseURL: URL, session: URLSession) {
    self.builder = RequestBuilder(baseURL: baseURL)
    self.transport = URLSessionTransport(session: session)
  }

  public func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
    let request = try builder.makeRequest(for: endpoint)
    let (body, response) = try await transport.send(request)
    try validator.validate(response, body: body, for: endpoint)
    return try endpoint.decode(body)
  }
}
