import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

/// The same failures as the stub suite, produced by a real server over real sockets.
@Suite(
  "URLSessionHTTPClient against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct URLSessionHTTPClientLoopbackTests {
  private let todos = Endpoint<[TestTodo]>(path: ["todos"])

  private func withClient(
    _ body: (URLSessionHTTPClient, SampleBackendConnection) async throws -> Void
  ) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      try await body(
        URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport), connection)
    }
  }

  @Test("a 200 decodes the whole list")
  func decodes() async throws {
    try await withClient { client, _ in
      let list = try await client.send(todos)
      #expect(list.count == 200)
      #expect(list.first?.id == 1)
    }
  }

  @Test("a client given only its base URL sends through the system's default session")
  func baseURLAlone() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      let list = try await URLSessionHTTPClient(baseURL: server.baseURL).send(todos)
      #expect(list.count == 200)
      #expect(try await connection.received().map(\.line) == ["GET /todos HTTP/1.1"])
    }
  }

  @Test("a missing todo is bad status 404 with the server's message")
  func notFound() async throws {
    try await withClient { client, _ in
      let result = await client.outcome(Endpoint<TestTodo>(path: ["todos", "9999"]))
      #expect(result == .failure(.badStatus(code: 404, bodyExcerpt: #"{"error":"not found"}"#)))
    }
  }

  @Test("a server error is bad status 500")
  func serverError() async throws {
    try await withClient { client, connection in
      try await connection.inject(.init(path: "/todos", status: 500))
      let result = await client.outcome(todos)
      #expect(result == .failure(.badStatus(code: 500, bodyExcerpt: #"{"error":"injected fault"}"#)))
    }
  }

  @Test("a body that is not JSON is decoding failed")
  func malformed() async throws {
    try await withClient { client, connection in
      try await connection.inject(.init(path: "/todos", body: .malformed))
      guard case .failure(.decodingFailed) = await client.outcome(todos) else {
        Issue.record("expected decoding failed")
        return
      }
    }
  }

  @Test("an empty body where a value is expected is no data")
  func empty() async throws {
    try await withClient { client, connection in
      try await connection.inject(.init(path: "/todos", body: .empty))
      #expect(await client.outcome(todos) == .failure(.noData))
    }
  }

  @Test("a connection reset and a truncated body are transport errors")
  func resetAndTruncated() async throws {
    try await withClient { client, connection in
      // Every attempt is reset: libcurl quietly re-sends a request once when a reused
      // keep-alive connection dies, so a single reset would not be seen by the client.
      try await connection.inject(.init(path: "/todos", count: -1, body: .reset))
      let reset = await client.outcome(todos)
      guard case .failure(.transport) = reset else {
        Issue.record("a reset connection should be a transport error, got \(reset)")
        return
      }
      _ = try await connection.raw("DELETE", "/_control/faults")
      try await connection.inject(.init(path: "/todos", body: .truncated))
      guard case .failure(.transport) = await client.outcome(todos) else {
        Issue.record("a truncated body should be a transport error")
        return
      }
    }
  }

  @Test("cancelling the calling task cancels the request, and the server sees it go away")
  func cancellation() async throws {
    try await withClient { client, connection in
      try await connection.inject(.init(path: "/todos", delay: 30))
      let endpoint = todos
      let request = Task { await client.outcome(endpoint) }
      let counted = try await connection.counters(once: { $0.requests > 0 })
      try #require(counted.requests > 0, "the request never reached the server")
      let cancelledAt = ContinuousClock.now
      request.cancel()
      #expect(await request.value == .failure(.cancelled))
      #expect(
        ContinuousClock.now - cancelledAt < .seconds(10), "cancellation must not wait for the 30 s delay")
      let counters = try await connection.counters(once: { $0.cancelled > 0 })
      #expect(counters.cancelled == 1)
    }
  }
}
