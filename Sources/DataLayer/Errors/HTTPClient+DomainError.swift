import DomainLayer
import NetworkLayer

extension HTTPClient {
  /// Sends `endpoint` and fails with the domain's view of any network error, so repositories
  /// translate errors in exactly one way (``NetworkError/domainError``).
  func sendTranslatingErrors<Response>(_ endpoint: Endpoint<Response>) async throws(DomainError) -> Response {
    do {
      return try await send(endpoint)
    } catch {
      throw error.domainError
    }
  }
}
