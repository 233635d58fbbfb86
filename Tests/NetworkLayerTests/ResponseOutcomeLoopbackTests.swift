import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// Honest outcomes, and the details a caller needs, against a real server.
@Suite(
  "Honest outcomes against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct ResponseOutcomeLoopbackTests {
  private struct Echo: Decodable, Sendable {
    var error: String
  }

  private struct StrictEcho: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable { case ok }
    var error: Kind
  }

  private struct Article: Decodable, Sendable, Equatable {
    var id: Int
    var title: String
  }

  private func withServer(
    interceptors: [any RequestInterceptor] = [],
    _ body: (URLSessionHTTPClient, SampleBackendConnection) async throws -> Void
  ) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(), interceptors: interceptors)
      try await body(client, connection)
    }
  }

  private func echo<Response>(
    status: Int = 200,
    contentTypes: [String] = [],
    as endpoint: (_ query: [URLQueryItem]) -> Endpoint<Response>
  ) -> Endpoint<Response> {
    endpoint(
      [URLQueryItem(name: "status", value: String(status))]
        + contentTypes.map { URLQueryItem(name: "contentType", value: $0) })
  }

  @Test("an endpoint that expects no content ignores a 200 text/plain body")
  func noContentIgnoresBody() async throws {
    try await withServer { client, _ in
      let endpoint = echo(contentTypes: ["text/plain"]) { query in
        Endpoint<NoContent>(method: .delete, path: ["_control", "echo"], query: query)
      }
      #expect(await client.outcome(endpoint) == .success(NoContent()))
    }
  }

  @Test("a Content-Type sent twice is judged by the value that wins in HTTP, the last one")
  func duplicateContentType() async throws {
    try await withServer { client, _ in
      let accepted = echo(contentTypes: ["text/html", "application/json; charset=utf-8"]) { query in
        Endpoint<Echo>(path: ["_control", "echo"], query: query)
      }
      let echoed = try await client.send(accepted)
      #expect(echoed.error == "echo")

      let refused = echo(contentTypes: ["application/json", "text/html"]) { query in
        Endpoint<Echo>(path: ["_control", "echo"], query: query)
      }
      let result = await client.outcome(refused)
      guard case .failure(.unacceptableContentType(let received?, "application/json")) = result else {
        Issue.record("expected unacceptable content type, got \(result)")
        return
      }
      #expect(received.contains("text/html"), "Foundation joined the field as \(received)")
    }
  }

  @Test("a decoding failure of valid JSON reports the decoder's own reason")
  func decoderReason() async throws {
    try await withServer { client, _ in
      let endpoint = echo { query in Endpoint<StrictEcho>(path: ["_control", "echo"], query: query) }
      let result = await client.outcome(endpoint)
      guard case .failure(.decodingFailed(let path, let reason)) = result else {
        Issue.record("expected decoding failed, got \(result)")
        return
      }
      #expect(path == "error")
      #expect(!reason.contains("not valid JSON"))
      #expect(reason.contains("echo"), "the decoder names the value it could not use: \(reason)")
    }
  }

  @Test("a refused connection says so in words and keeps the code")
  func refusedInWords() async throws {
    // Held, not freed by a stopped server: a freed port may go to another test's server at once.
    let closed = try ReservedLoopbackPort()
    let client = URLSessionHTTPClient(baseURL: closed.baseURL, session: .loopbackTesting())
    let result = await client.outcome(Endpoint<Echo>(path: ["todos"]))
    withExtendedLifetime(closed) {}
    guard case .failure(let error) = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(error == .transport(code: URLError.Code.cannotConnectToHost.rawValue))
    #expect(error.description.contains("connection refused"))
    #expect(error.description.contains("\(URLError.Code.cannotConnectToHost.rawValue)"))
  }

  @Test("an idempotent request whose connection closed before any response is retried")
  func retriedAfterClose() async throws {
    let policy = RetryPolicy(baseDelay: .zero)
    try await withServer(interceptors: [policy]) { client, connection in
      try await connection.inject(.init(path: "/articles/today", count: 2, body: .close))
      let article = try await client.send(Endpoint<Article>(path: ["articles", "today"]))
      #expect(article.id == 1)
      let afterRetries = try await connection.counters()
      #expect(afterRetries.paths["GET /articles/today"] == 3)
    }
  }

  @Test("a closed connection ends as transport −1011 after the policy's attempts; a POST is not retried")
  func closeEndsAfterAttempts() async throws {
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .zero)
    try await withServer(interceptors: [policy]) { client, connection in
      try await connection.inject(.init(path: "/articles/today", count: -1, body: .close))
      let get = await client.outcome(Endpoint<Article>(path: ["articles", "today"]))
      let code = URLError.Code.badServerResponse.rawValue
      #expect(get == .failure(.transport(code: code)))
      let afterGets = try await connection.counters()
      #expect(afterGets.paths["GET /articles/today"] == 3)

      try await connection.inject(.init(path: "/todos", method: "POST", count: -1, body: .close))
      let post = await client.outcome(
        Endpoint<Article>(method: .post, path: ["todos"], body: .json(["title": "x"])))
      #expect(post == .failure(.transport(code: code)))
      let afterPost = try await connection.counters()
      #expect(afterPost.paths["POST /todos"] == 1)
    }
  }

  @Test("a response carries the status, the headers and the final URL with the value")
  func metadata() async throws {
    try await withServer { client, connection in
      let created = echo(status: 201, contentTypes: ["application/json"]) { query in
        Endpoint<Echo>(method: .post, path: ["_control", "echo"], query: query)
      }
      let response = try await client.response(for: created)
      #expect(response.value.error == "echo")
      #expect(response.statusCode == 201)
      #expect(response.value(forHTTPHeaderField: "content-type") == "application/json")
      #expect(response.url?.path == "/_control/echo")

      try await connection.inject(.init(path: "/old-article", status: 302, location: "/articles/today"))
      let moved = try await client.response(for: Endpoint<Article>(path: ["old-article"]))
      #expect(moved.value.id == 1)
      #expect(moved.statusCode == 200)
      #expect(moved.url?.path == "/articles/today")
    }
  }

  @Test("a raw Data endpoint returns the body as sent, without a decode closure")
  func rawData() async throws {
    try await withServer { client, connection in
      let expected = try await connection.raw("GET", "/articles/today").body
      let data = try await client.send(Endpoint.raw(path: ["articles", "today"]))
      #expect(data == expected)

      try await connection.inject(.init(path: "/articles/today", body: .empty))
      let emptied = try await client.send(Endpoint.raw(path: ["articles", "today"]))
      #expect(emptied == Data())
    }
  }

  @Test(
    "a 304 to a conditional request is the optional endpoint's nil where 304 is acceptable, and a bad status elsewhere"
  )
  func notModified() async throws {
    try await withServer { client, _ in
      let reply = "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nConnection: close\r\n\r\n"
      func conditional<Value>(_ endpoint: Endpoint<Value>, accepting codes: Range<Int>) -> Endpoint<Value> {
        var endpoint = endpoint
        endpoint.path = ["_probe", "raw"]
        endpoint.query = [URLQueryItem(name: "reply", value: reply)]
        endpoint.headers = ["If-None-Match": #""v1""#]
        endpoint.acceptableStatusCodes = codes
        return endpoint
      }

      let unchanged = try await client.response(
        for: conditional(Endpoint<Article?>(path: []), accepting: 200..<305))
      #expect(unchanged.value == nil)
      #expect(unchanged.statusCode == 304)
      #expect(unchanged.value(forHTTPHeaderField: "ETag") == #""v1""#)
      let required = await client.outcome(conditional(Endpoint<Article>(path: []), accepting: 200..<305))
      #expect(required == .failure(.noData))
      let unasked = await client.outcome(conditional(Endpoint<Article?>(path: []), accepting: 200..<300))
      #expect(unasked == .failure(.badStatus(code: 304, bodyExcerpt: nil)))
    }
  }

  @Test("the completion-handler form gives the same response details")
  func metadataByCompletion() async throws {
    try await withServer { client, _ in
      let result = await withCheckedContinuation { continuation in
        client.response(for: Endpoint<Article>(path: ["articles", "today"])) { result in
          continuation.resume(returning: result.map(\.statusCode))
        }
      }
      #expect(result == .success(200))
    }
  }
}
