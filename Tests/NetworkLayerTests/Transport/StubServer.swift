import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How a ``StubServer`` is reached: through the in-process transport, or through `URLSession`
/// with a protocol class that answers on Foundation's own thread, so that the URLSession
/// transport's task handling runs without a socket.
enum StubCarrier: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case inProcessTransport
  case urlSession

  var testDescription: String { rawValue }
}

/// What a stub server does with every request.
enum StubAnswer: Sendable {
  case respond(InProcessResponse)
  /// Answers nothing until the client stops the request.
  case hang
  /// Fails as swift-corelibs-foundation fails a libcurl error it has no code for: an unknown
  /// error carrying libcurl's `message`, after a response head and the start of a body when
  /// `afterHead`. Only the URLSession carrier has libcurl's words; the in-process one fails with
  /// `unknown` alone.
  case libcurlFailure(message: String, afterHead: Bool)
}

/// A server that gives one answer to every request and counts, at the server, what arrived and
/// what the client stopped.
final class StubServer: Sendable {
  let arrivals = Locked(0)
  /// Requests hanging now.
  let open = Locked(0)
  /// Hanging requests the client stopped.
  let stopped = Locked(0)
  let answer: StubAnswer
  let baseURL: URL
  let transport: any HTTPTransport

  init(_ carrier: StubCarrier, answer: StubAnswer) {
    self.answer = answer
    switch carrier {
    case .inProcessTransport:
      let counters = (arrivals, open, stopped)
      let inProcess = InProcessTransport(
        StubHandler { _ in
          counters.0.withLock { $0 += 1 }
          switch answer {
          case .respond(let response):
            return .respond(response)
          case .libcurlFailure:
            return .fail(.unknown)
          case .hang:
            counters.1.withLock { $0 += 1 }
            try? await Task.sleep(for: .seconds(3600))
            counters.1.withLock { $0 -= 1 }
            counters.2.withLock { $0 += 1 }
            return .fail(.cancelled)
          }
        })
      baseURL = inProcess.baseURL
      transport = inProcess
    case .urlSession:
      let host = "\(UUID().uuidString.lowercased()).stub.invalid"
      baseURL = URL(string: "http://\(host)") ?? URL(fileURLWithPath: "/")
      let configuration = URLSessionConfiguration.ephemeral
      configuration.protocolClasses = [SynchronousStubProtocol.self]
      configuration.urlCache = nil
      transport = URLSessionTransport(session: URLSession(configuration: configuration))
      SynchronousStubProtocol.servers.withLock { $0[host] = self }
    }
  }

  func client(
    interceptors: [any RequestInterceptor] = [],
    maximumResponseSize: Int = URLSessionHTTPClient.defaultMaximumResponseSize
  ) -> URLSessionHTTPClient {
    URLSessionHTTPClient(
      baseURL: baseURL, transport: transport, interceptors: interceptors,
      maximumResponseSize: maximumResponseSize)
  }
}

/// Answers from `startLoading`, which swift-corelibs-foundation calls on the task's work queue:
/// the one thread its protocol client may be called from.
private final class SynchronousStubProtocol: URLProtocol {
  static let servers = Locked([String: StubServer]())
  private let hanging = Locked(false)

  private static func server(for request: URLRequest) -> StubServer? {
    guard let host = request.url?.host?.lowercased() else { return nil }
    return servers.withLock { $0[host] }
  }

  override class func canInit(with request: URLRequest) -> Bool { server(for: request) != nil }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let server = Self.server(for: request), let url = request.url else { return }
    server.arrivals.withLock { $0 += 1 }
    switch server.answer {
    case .respond(let response):
      guard let head = response.head(for: url) else { return }
      client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
      if !response.body.isEmpty { client?.urlProtocol(self, didLoad: response.body) }
      client?.urlProtocolDidFinishLoading(self)
    case .libcurlFailure(let message, let afterHead):
      // A head without a length, as an HTTP/2 stream's often is, so that only the words tell.
      if afterHead,
        let head = HTTPURLResponse(
          url: url, statusCode: 200, httpVersion: "HTTP/2", headerFields: ["Content-Type": "application/json"]
        )
      {
        client?.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data(#"{"id":"#.utf8))
      }
      client?.urlProtocol(
        self, didFailWithError: URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message]))
    case .hang:
      hanging.withLock { $0 = true }
      server.open.withLock { $0 += 1 }
    }
  }

  override func stopLoading() {
    guard
      hanging.withLock({ state in
        defer { state = false }
        return state
      }),
      let server = Self.server(for: request)
    else { return }
    server.open.withLock { $0 -= 1 }
    server.stopped.withLock { $0 += 1 }
  }
}
