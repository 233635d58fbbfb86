import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("In-process transport", .timeLimit(.minutes(1)))
struct InProcessTransportTests {
  /// A handler that counts what reaches it, and waits as long as a request says.
  private final class CountingHandler: InProcessHandler {
    let received = Locked(0)
    let cancelled = Locked(0)

    func handle(_ request: InProcessRequest) async -> InProcessReply {
      received.withLock { $0 += 1 }
      if request.queryValue("wait") != nil {
        do {
          try await Task.sleep(for: .seconds(60))
        } catch {
          cancelled.withLock { $0 += 1 }
        }
      }
      return .respond(
        InProcessResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("ok".utf8)))
    }
  }

  @Test("every one of 500 concurrent requests is answered, and each reaches the handler once")
  func everyRequestIsAnswered() async throws {
    let handler = CountingHandler()
    let transport = InProcessTransport(handler)
    let statuses = await withTaskGroup(of: Int.self) { group in
      for index in 0..<500 {
        group.addTask {
          let request = URLRequest(url: transport.baseURL.appendingPathComponent("requests/\(index)"))
          return (try? await transport.send(request))?.1.statusCode ?? -1
        }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses.allSatisfy { $0 == 200 }, "statuses other than 200: \(statuses.filter { $0 != 200 })")
    #expect(handler.received.withLock { $0 } == 500)
  }

  @Test("a body given as a stream, as an interceptor may, reaches the handler whole")
  func streamedBodyArrives() async throws {
    let received = Locked(Data())
    let transport = InProcessTransport(
      StubHandler { request in
        received.withLock { $0 = request.body }
        return .respond(InProcessResponse(status: 204))
      })
    let body = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0) })
    var request = URLRequest(url: transport.baseURL.appendingPathComponent("upload"))
    request.httpMethod = "POST"
    request.httpBodyStream = InputStream(data: body)
    let (_, response) = try await transport.send(request)
    #expect(response.statusCode == 204)
    #expect(received.withLock { $0 } == body)
  }

  @Test("a request for another host fails as a refused connection and never reaches the handler")
  func anotherHostIsRefused() async throws {
    let handler = CountingHandler()
    let transport = InProcessTransport(handler)
    let elsewhere = try #require(URL(string: "http://example.invalid/todos"))
    await #expect(throws: NetworkError.transport(code: URLError.cannotConnectToHost.rawValue)) {
      try await transport.send(URLRequest(url: elsewhere))
    }
    #expect(handler.received.withLock { $0 } == 0)
  }

  @Test("a disconnected transport refuses requests until it is reconnected")
  func disconnectRefusesUntilReconnected() async throws {
    let handler = CountingHandler()
    let transport = InProcessTransport(handler)
    let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
    let ping = Endpoint<Data>.raw(method: .get, path: ["ping"], accept: "text/plain")
    transport.disconnect()
    await #expect(throws: NetworkError.transport(code: URLError.cannotConnectToHost.rawValue)) {
      try await client.send(ping)
    }
    transport.reconnect()
    #expect(try await client.send(ping) == Data("ok".utf8))
    #expect(handler.received.withLock { $0 } == 1)
  }

  @Test("a call's deadline ends the handler's wait: the handler sees the cancellation")
  func deadlineCancelsTheHandler() async throws {
    let handler = CountingHandler()
    let transport = InProcessTransport(handler)
    let client = URLSessionHTTPClient(
      baseURL: transport.baseURL, transport: transport, defaultDeadline: .milliseconds(200))
    let slow = Endpoint<Data>.raw(
      method: .get, path: ["slow"], query: [URLQueryItem(name: "wait", value: "1")], accept: "text/plain")
    await #expect(throws: NetworkError.timeout) { try await client.send(slow) }
    // The client answers without waiting for the handler to unwind; the handler notices soon after.
    var waited = 0
    while handler.cancelled.withLock({ $0 }) == 0, waited < 500 {
      try await Task.sleep(for: .milliseconds(10))
      waited += 1
    }
    #expect(handler.cancelled.withLock { $0 } == 1)
  }
}
