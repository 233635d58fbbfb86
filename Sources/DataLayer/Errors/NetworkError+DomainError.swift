public import DomainLayer
import Foundation
public import NetworkLayer

/// Where the network's failures are translated into the domain's words.
extension NetworkError {
  /// The domain's view of this failure.
  ///
  /// This is the only place where network errors become domain errors, so the policy (which
  /// transport codes mean "offline", which statuses mean "not found") is decided once. The
  /// table is spelled out on `HTTPClient.sendTranslatingErrors(_:)`, the helper
  /// repositories call.
  public var domainError: DomainError {
    switch self {
    case .cancelled:
      return .cancelled
    case .timeout:
      return .timeout
    case .unauthorized, .refreshFailed, .excessiveRefresh:
      return .sessionExpired
    case .refreshUnavailable(let cause):
      // The refresh's own failure: a status of the refresh endpoint is a server problem, never
      // the resource's "not found" or "forbidden", unless the network stopped it on its way.
      if let status = cause.status, ![407, 511].contains(status) { return .server(status: status) }
      let domain = cause.domainError
      return [.offline, .timeout].contains(domain) ? domain : .server(status: nil)
    case .refused(_, let message, let fieldErrors):
      return .rejected(message: message, fieldErrors: fieldErrors)
    // A 401 here was for no token, or for a renewed one too: only the interceptor ends a session.
    case .badStatus(401, _), .badStatus(403, _), .badStatus(451, _):
      return .forbidden(serverMessage: serverSentence)
    case .badStatus(404, _), .badStatus(410, _):
      return .notFound
    // 408 is the server's own timeout; a 429 passes in a moment, as a server error does.
    case .badStatus(408, _):
      return .timeout
    // A proxy (407) or a network's portal (511) stopped the request on its way: until someone
    // signs in to that network, the server cannot be reached.
    case .badStatus(407, _), .badStatus(511, _):
      return .offline
    case .badStatus(let code, _) where code >= 500 || code == 429:
      return .server(status: code)
    // What was sent was refused (its input, a payment, a conflict, a precondition, its size or
    // type) with no field named: the screen shows the server's sentence, if any.
    case .badStatus(let code, _) where [400, 402, 409, 412, 413, 414, 415, 422, 431].contains(code):
      return .rejected(message: serverSentence, fieldErrors: [:])
    case .badStatus(let code, _):
      return .unexpected(reason: "HTTP status \(code)")
    case .noData, .decodingFailed, .unacceptableContentType, .invalidResponse, .responseTooLarge:
      return .invalidData(reason: description)
    case .invalidURL, .invalidRequest:
      return .unexpected(reason: description)
    case .transport(let code):
      return Self.domainError(transportCode: URLError.Code(rawValue: code), description: description)
    }
  }

  private static func domainError(transportCode code: URLError.Code?, description: String) -> DomainError {
    switch code {
    case .timedOut?:
      .timeout
    case .notConnectedToInternet?, .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?,
      .networkConnectionLost?, .internationalRoamingOff?, .dataNotAllowed?:
      .offline
    case .cancelled?:
      .cancelled
    // The server answered, with something that cannot be read: a body that does not decode.
    case .cannotParseResponse?, .cannotDecodeContentData?, .cannotDecodeRawData?:
      .invalidData(reason: description)
    // The server's configuration or its process failed: a redirect loop, a redirect to nowhere,
    // a connection closed before any response.
    case .httpTooManyRedirects?, .redirectToNonExistentLocation?, .badServerResponse?:
      .server(status: nil)
    default:
      .unexpected(reason: "transport error \(code.map { "\($0.rawValue)" } ?? "unknown")")
    }
  }
}
