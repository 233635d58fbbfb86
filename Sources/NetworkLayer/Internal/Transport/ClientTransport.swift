import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The client's transport, told apart once when the client is made: URLSession's own runs inside
/// the call's scope, which ends its data task directly; any other runs as a wait the scope can
/// abandon, and its answer is held to the same limits afterwards.
enum ClientTransport: Sendable {
  case urlSession(URLSessionTransport)
  case other(any HTTPTransport)

  init(_ transport: any HTTPTransport) {
    if let urlSession = transport as? URLSessionTransport {
      self = .urlSession(urlSession)
    } else {
      self = .other(transport)
    }
  }

  /// Whether requests may carry the cookie jar's cookies.
  var sendsCookies: Bool {
    if case .urlSession(let transport) = self { transport.sendsCookies } else { false }
  }

  /// Sends `request` within `scope`: a body over `maximumResponseSize` ends the call, unless its
  /// status is not one of `acceptableStatusCodes`, whose body is cut to its start instead.
  /// `followsRedirects` is URLSession's to apply; any other transport follows or not as it does.
  func send(
    _ request: URLRequest, maximumResponseSize: Int, acceptableStatusCodes: Range<Int>,
    followsRedirects: Bool,
    scope: CallScope
  ) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let limit = max(0, maximumResponseSize)
    switch self {
    case .urlSession(let transport):
      return try await transport.send(
        request, maximumResponseSize: limit, acceptableStatusCodes: acceptableStatusCodes,
        followsRedirects: followsRedirects, scope: scope)
    case .other(let transport):
      let (body, response) = try await scope.run { () async throws(NetworkError) in
        try await transport.send(request)
      }
      guard acceptableStatusCodes.contains(response.statusCode) else {
        return (body.prefix(Transfer.errorBodyLimit), response)
      }
      if body.count > limit { throw .responseTooLarge(limit: limit) }
      return (body, response)
    }
  }
}
