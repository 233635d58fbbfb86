public import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// A `URLProtocol` that hands requests to an ``InProcessHandler`` chosen by the request's host.
///
/// Each mount gets a host of its own (`<uuid>.inprocess.invalid`), so any number of independent
/// handlers (one per test, say) can be mounted at once without seeing each other's requests.
/// The `.invalid` top-level domain is reserved and can never resolve, so a request that somehow
/// bypasses this protocol fails instead of reaching a real server.
public final class InProcessURLProtocol: URLProtocol {
  /// A mounted handler: the URL to send requests to and how to build a session that reaches it.
  public struct Mount: Sendable {
    /// `http://<host>`: use it as the base URL of a client.
    public let baseURL: URL
    let host: String
    let handler: MountedHandler

    /// A configuration whose sessions route this mount's host through the handler.
    /// Caching is off so that every request reaches the handler.
    public func makeConfiguration() -> URLSessionConfiguration {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.protocolClasses = [InProcessURLProtocol.self]
      configuration.urlCache = nil
      return configuration
    }

    /// A new session built from ``makeConfiguration()``.
    public func makeSession() -> URLSession {
      URLSession(configuration: makeConfiguration())
    }

    /// Routes this mount's host to its handler again after ``unmount()``, as a server that comes
    /// back up at the same address.
    public func remount() {
      InProcessURLProtocol.handlers.withLock { $0[host] = handler }
    }

    /// Stops routing this mount's host; later requests for it fail to connect.
    public func unmount() {
      InProcessURLProtocol.handlers.withLock { _ = $0.removeValue(forKey: host) }
    }
  }

  /// A handler and how its replies reach Foundation.
  struct MountedHandler: Sendable {
    let handler: any InProcessHandler
    /// Calls the protocol client from the handler's thread even where Foundation's work queue is
    /// known: the path Apple platforms always take, forced by tests so that it runs on Linux too.
    let deliversDirectly: Bool
  }

  /// Where a request is in its life. "Not stored yet" and "stopped" are different things: a
  /// handler may answer before `startLoading` has stored its task, and that answer is delivered.
  private enum Loading {
    case starting
    case loading(Task<Void, Never>)
    case stopped
  }

  private static let handlers = Locked([String: MountedHandler]())
  private let loading = Locked(Loading.starting)

  /// Routes requests for a new, unique host to `handler`.
  public static func mount(_ handler: any InProcessHandler) -> Mount {
    mount(handler, deliveringDirectly: false)
  }

  /// Routes requests for a new, unique host to `handler`; with `deliveringDirectly`, replies
  /// skip Foundation's work queue, as they do on Apple platforms.
  package static func mount(_ handler: any InProcessHandler, deliveringDirectly: Bool) -> Mount {
    let host = "\(UUID().uuidString.lowercased()).inprocess.invalid"
    let mounted = MountedHandler(handler: handler, deliversDirectly: deliveringDirectly)
    handlers.withLock { $0[host] = mounted }
    // The host is built from a UUID, so this URL is always well-formed.
    let baseURL = URL(string: "http://\(host)") ?? URL(fileURLWithPath: "/")
    return Mount(baseURL: baseURL, host: host, handler: mounted)
  }

  private static func handler(for url: URL?) -> MountedHandler? {
    guard let host = url?.host?.lowercased() else { return nil }
    return handlers.withLock { $0[host] }
  }

  /// Claims a request whose host is mounted, so only mounted hosts are answered in process.
  override public class func canInit(with request: URLRequest) -> Bool {
    handler(for: request.url) != nil
  }

  /// The request unchanged: a handler sees exactly what the client sent.
  override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  /// Asks the mounted handler for the reply and delivers it, whenever it is ready, unless the
  /// request was stopped meanwhile.
  override public func startLoading() {
    let request = self.request
    guard let url = request.url, let mounted = Self.handler(for: url) else {
      client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
      return
    }
    let parsed = Self.parse(request, url: url)
    let target = DeliveryTarget(instance: self)
    let queue = mounted.deliversDirectly ? nil : Self.workQueue(of: task)
    let loading = self.loading
    let work = Task {
      let reply = await mounted.handler.handle(parsed)
      let deliver: @Sendable () -> Void = {
        // Checked on the work queue, where stopLoading also runs: a stopped request is never
        // answered. One that is merely not stored yet is.
        guard !loading.withLock({ if case .stopped = $0 { true } else { false } }) else { return }
        target.instance?.deliver(reply, for: url)
      }
      if let queue { queue.async(execute: deliver) } else { deliver() }
    }
    let stoppedMeanwhile = loading.withLock { state in
      guard case .starting = state else { return true }
      state = .loading(work)
      return false
    }
    if stoppedMeanwhile { work.cancel() }
  }

  /// Stops the handler's work for this request; a reply that is ready later is dropped.
  override public func stopLoading() {
    let work = loading.withLock { state -> Task<Void, Never>? in
      defer { state = .stopped }
      guard case .loading(let work) = state else { return nil }
      return work
    }
    work?.cancel()
  }

  /// The queue Foundation runs this task's protocol work on.
  ///
  /// swift-corelibs-foundation keeps each session's task registry unsynchronised and touches it
  /// only on its work queue; a protocol client call from any other thread races with other tasks
  /// starting and finishing, and crashes under load. Startup runs on that queue, but Foundation
  /// does not expose it, so it is looked up by reflection; where it is not found (Apple's
  /// Foundation, which has no such constraint), callbacks are made directly.
  package static func workQueue(of task: URLSessionTask?) -> DispatchQueue? {
    #if canImport(FoundationNetworking)
      var mirror = task.map { Mirror(reflecting: $0) }
      while let current = mirror {
        if let queue = current.children.first(where: { $0.label == "workQueue" })?.value as? DispatchQueue {
          return queue
        }
        mirror = current.superclassMirror
      }
    #endif
    return nil
  }

  private func deliver(_ reply: InProcessReply, for url: URL) {
    guard let client else { return }
    switch reply {
    case .respond(let response):
      guard let head = Self.head(of: response, url: url) else {
        client.urlProtocol(self, didFailWithError: URLError(.badServerResponse))
        return
      }
      client.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
      if !response.body.isEmpty { client.urlProtocol(self, didLoad: response.body) }
      client.urlProtocolDidFinishLoading(self)
    case .truncate(let response, let bytesSent):
      if let head = Self.head(of: response, url: url) {
        client.urlProtocol(self, didReceive: head, cacheStoragePolicy: .notAllowed)
        client.urlProtocol(self, didLoad: response.body.prefix(bytesSent))
      }
      client.urlProtocol(self, didFailWithError: URLError(.networkConnectionLost))
    case .fail(let code):
      client.urlProtocol(self, didFailWithError: URLError(code))
    }
  }

  private static func head(of response: InProcessResponse, url: URL) -> HTTPURLResponse? {
    var headers = response.headers
    headers["Content-Length"] = String(response.body.count)
    return HTTPURLResponse(
      url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: headers)
  }

  private static func parse(_ request: URLRequest, url: URL) -> InProcessRequest {
    let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
    let path = components?.path ?? "/"
    return InProcessRequest(
      method: request.httpMethod ?? "GET",
      path: path.isEmpty ? "/" : path,
      query: components?.queryItems ?? [],
      headers: request.allHTTPHeaderFields ?? [:],
      body: body(of: request),
      percentEncodedPath: (components?.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 }
    )
  }

  /// Foundation may hand a protocol the body as a stream instead of `httpBody`.
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

/// Lets the handler's task call back into the protocol instance.
///
/// `URLProtocol` is not `Sendable`, but Foundation's client callbacks may be made from any
/// thread, and the instance is only touched again after the handler has finished, once.
private struct DeliveryTarget: @unchecked Sendable {
  weak var instance: InProcessURLProtocol?
}
