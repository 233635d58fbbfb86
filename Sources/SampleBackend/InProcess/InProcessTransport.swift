public import Foundation
import LayeredSupport
public import NetworkLayer

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// An `HTTPTransport` that hands each request to an ``InProcessHandler``: a server without a
/// socket, for the showcase, previews and fast tests.
///
/// Give a client the transport and its ``baseURL``. Each transport has a host of its own
/// (`<uuid>.inprocess.invalid`); a request for any other host fails as a refused connection, and
/// the `.invalid` top-level domain can never resolve, so nothing meant for it reaches a real
/// server.
///
/// The client's pipeline runs as it does on the network (interceptors, retries, deadlines,
/// cancellation, validation, decoding, monitors), and the handler sees each request as the
/// client built it. What only a network has is not exercised: `URLSession`, sockets, redirects,
/// response framing, the swift-corelibs-foundation workarounds. The loopback sample server,
/// `scripts/sample_api.py`, runs the same contract for those.
public struct InProcessTransport: HTTPTransport {
  /// `http://<host>`: the base URL of a client that uses this transport.
  public let baseURL: URL
  private let host: String
  private let handler: any InProcessHandler
  private let isReachable = Locked(true)

  /// Creates a transport whose requests `handler` answers.
  public init(_ handler: any InProcessHandler) {
    host = "\(UUID().uuidString.lowercased()).inprocess.invalid"
    // The host is built from a UUID, so this URL is always well-formed.
    baseURL = URL(string: "http://\(host)") ?? URL(fileURLWithPath: "/")
    self.handler = handler
  }

  /// Takes the server away, as a device that goes offline: later requests fail to connect.
  public func disconnect() {
    isReachable.withLock { $0 = false }
  }

  /// Brings the server back at the same address after ``disconnect()``.
  public func reconnect() {
    isReachable.withLock { $0 = true }
  }

  /// Answers `request` with the handler's reply. The handler runs in the calling task, so a
  /// client that cancels the request cancels the handler's wait too.
  public func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    guard let url = request.url, url.host?.lowercased() == host, isReachable.withLock({ $0 }) else {
      throw .transport(code: URLError.cannotConnectToHost.rawValue)
    }
    switch await handler.handle(InProcessRequest(request, url: url)) {
    case .respond(let response):
      guard let head = response.head(for: url) else {
        throw .transport(code: URLError.badServerResponse.rawValue)
      }
      // As on the wire: an answer to HEAD announces its body's length and sends no body.
      return (request.httpMethod == "HEAD" ? Data() : response.body, head)
    case .truncate:
      throw .transport(code: URLError.networkConnectionLost.rawValue)
    case .fail(.cancelled):
      throw .cancelled
    case .fail(let code):
      throw .transport(code: code.rawValue)
    }
  }
}

extension InProcessResponse {
  /// The response's head as a client receives it, its length announced.
  package func head(for url: URL) -> HTTPURLResponse? {
    var headers = headers
    headers["Content-Length"] = String(body.count)
    return HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
  }
}

extension InProcessRequest {
  /// `request` as a handler sees it, its path split before it is decoded.
  fileprivate init(_ request: URLRequest, url: URL) {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    let path = components?.path ?? "/"
    // As on the wire, where HTTP/1.1 always names the host: a server builds absolute links on it.
    var headers = request.allHTTPHeaderFields ?? [:]
    headers["Host"] = (url.host ?? "") + (url.port.map { ":\($0)" } ?? "")
    self.init(
      method: request.httpMethod ?? "GET",
      path: path.isEmpty ? "/" : path,
      query: Self.formItems(components?.percentEncodedQuery ?? ""),
      headers: headers,
      body: Self.body(of: request),
      percentEncodedPath: (components?.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 }
    )
  }

  /// The body, also when an interceptor gave it as a stream instead of `httpBody`.
  private static func body(of request: URLRequest) -> Data {
    if let body = request.httpBody { return body }
    guard let stream = request.httpBodyStream else { return Data() }
    stream.open()
    defer { stream.close() }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { break }
      data.append(contentsOf: buffer[0..<count])
    }
    return data
  }
}
