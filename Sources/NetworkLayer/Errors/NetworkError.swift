/// Every way a request can fail, as the network layer sees it.
///
/// Thrown with typed throws by every client call. Cases carry only what helps a developer or a
/// retry decision: a status code, a short excerpt of an error body, a coding path, a `URLError`
/// code. They never carry request headers or bodies, so descriptions cannot leak credentials.
public enum NetworkError: Error, Sendable, Hashable {
  /// The endpoint and base URL do not form a valid URL.
  case invalidURL(String)
  /// The request could not be built, for example a header value containing a line break.
  case invalidRequest(String)
  /// The response was not an HTTP response.
  case invalidResponse
  /// The server answered with a status the endpoint does not accept.
  case badStatus(code: Int, bodyExcerpt: String?)
  /// The body's `Content-Type` is not one the endpoint accepts (`nil`: none was sent).
  case unacceptableContentType(received: String?, accepted: String)
  /// The body was empty where a value was expected.
  case noData
  /// The body could not be decoded; `path` says where (`[3].title`).
  case decodingFailed(path: String, reason: String)
  /// The request was cancelled by its caller.
  case cancelled
  /// The transport failed; `code` is the `URLError.Code` raw value.
  case transport(code: Int)
}

extension NetworkError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .invalidURL(let detail): "invalid URL: \(detail)"
    case .invalidRequest(let detail): "invalid request: \(detail)"
    case .invalidResponse: "invalid response: not an HTTP response"
    case .badStatus(let code, let excerpt?): "bad status \(code): \(excerpt)"
    case .badStatus(let code, nil): "bad status \(code)"
    case .unacceptableContentType(let received, let accepted):
      "unacceptable content type \(received.map { "\"\($0)\"" } ?? "(none)"), expected \(accepted)"
    case .noData: "no data: the response body was empty"
    case .decodingFailed(let path, let reason):
      path.isEmpty ? "decoding failed: \(reason)" : "decoding failed at \(path): \(reason)"
    case .cancelled: "cancelled"
    case .transport(let code): "transport error (URLError code \(code))"
    }
  }
}
