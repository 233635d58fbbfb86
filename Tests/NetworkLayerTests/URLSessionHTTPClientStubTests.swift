import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("URLSessionHTTPClient against stubs")
struct URLSessionHTTPClientStubTests {
  private func send<Response>(
    _ endpoint: Endpoint<Response>,
    to mount: InProcessTransport
  ) async -> Result<Response, NetworkError> {
    return await URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount).outcome(endpoint)
  }

  private let todos = Endpoint<[TestTodo]>(path: ["todos"])

  @Test("a 200 with a JSON body decodes to the endpoint's response type")
  func decodes() async throws {
    let mount = StubHandler.transport(
      status: 200, body: #"[{"userId":1,"id":1,"title":"a","completed":true}]"#)
    let result = try await send(todos, to: mount).get()
    #expect(result == [TestTodo(userId: 1, id: 1, title: "a", completed: true)])
  }

  @Test(
    "a status outside the accepted range is bad status, with the code and a body excerpt",
    arguments: [301, 400, 404, 418, 500, 503])
  func badStatus(code: Int) async {
    let mount = StubHandler.transport(status: code, body: #"{"error":"nope"}"#)
    let result = await send(todos, to: mount)
    #expect(result == .failure(.badStatus(code: code, bodyExcerpt: #"{"error":"nope"}"#)))
  }

  @Test("a long error body is cut to a short excerpt")
  func longExcerpt() async {
    let mount = StubHandler.transport(status: 500, body: String(repeating: "x", count: 5_000))
    guard case .failure(.badStatus(500, let excerpt?)) = await send(todos, to: mount) else {
      Issue.record("expected bad status 500 with an excerpt")
      return
    }
    #expect(excerpt.count <= 201)
  }

  @Test("a body that is not JSON is decoding failed")
  func notJSON() async {
    let mount = StubHandler.transport(status: 200, body: "<html>oops</html>")
    guard case .failure(.decodingFailed) = await send(todos, to: mount) else {
      Issue.record("expected decoding failed")
      return
    }
  }

  @Test("a decoding failure names the path where it happened")
  func decodingPath() async {
    let mount = StubHandler.transport(
      status: 200,
      body:
        #"[{"userId":1,"id":1,"title":"a","completed":true},{"userId":1,"id":2,"title":5,"completed":true}]"#
    )
    let result = await send(todos, to: mount)
    #expect(result == .failure(.decodingFailed(path: "[1].title", reason: "expected String")))
  }

  @Test("an empty body where a value is expected is no data")
  func emptyBody() async {
    let mount = StubHandler.transport(status: 200, body: "")
    #expect(await send(todos, to: mount) == .failure(.noData))
  }

  @Test(
    "a body whose content type the endpoint does not accept is rejected",
    arguments: [
      Optional("text/html"), Optional("application/xml; charset=utf-8"), nil,
      // Starts with the accepted type, but is another type, or a list whose last type wins.
      Optional("application/jsonp"), Optional("application/json-seq; charset=utf-8"),
      // A suffix makes JSON only of an application type, and only `+json` is JSON.
      Optional("text/vnd.example+json"), Optional("application/vnd.example+xml"),
      Optional("application/json; charset=utf-8, text/html"),
    ]
  )
  func unacceptableContentType(contentType: String?) async {
    let mount = StubHandler.transport(status: 200, body: "[]", contentType: contentType)
    #expect(
      await send(todos, to: mount)
        == .failure(.unacceptableContentType(received: contentType, accepted: "application/json")))
  }

  @Test(
    "content types match with parameters ignored and wildcards honoured",
    arguments: [
      ("application/json", "application/json; charset=utf-8"),
      ("application/json", "application/json ;charset=utf-8"),
      ("application/json", "application/json;"),
      ("application/json", "application/json; profile=\"a,b\""),
      ("application/json", "APPLICATION/JSON"),
      ("application/*", "application/json"),
      ("*/*", "text/plain"),
      ("text/html, application/json;q=0.9", "application/json"),
      // JSON by its structured-syntax suffix (RFC 6839), as JSON:API, HAL and problem details are.
      ("application/json", "application/vnd.api+json"),
      ("application/json", "application/hal+json; charset=utf-8"),
      ("application/json", "Application/Problem+JSON"),
      // An API asked for its own JSON type may answer plain JSON, as GitHub's does.
      ("application/vnd.github+json", "application/json; charset=utf-8"),
      ("application/hal+json", "application/problem+json"),
    ]
  )
  func acceptableContentType(accept: String, contentType: String) async throws {
    let mount = StubHandler.transport(status: 200, body: "[]", contentType: contentType)
    let endpoint = Endpoint<[TestTodo]>(path: ["todos"], accept: accept) { data throws(NetworkError) in
      guard data == Data("[]".utf8) else { throw .noData }
      return []
    }
    #expect(try await send(endpoint, to: mount).get() == [])
  }

  @Test("a refused connection is a transport error carrying the URLError code")
  func refused() async {
    let mount = InProcessTransport(StubHandler { _ in .fail(.cannotConnectToHost) })
    #expect(
      await send(todos, to: mount) == .failure(.transport(code: URLError.Code.cannotConnectToHost.rawValue)))
  }

  @Test("a body cut off mid-way is a transport error, not a decoding error")
  func truncated() async {
    let body = Data(#"[{"userId":1,"id":1,"title":"a","completed":true}]"#.utf8)
    let response = InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    let mount = InProcessTransport(StubHandler { _ in .truncate(response, bytesSent: 10) })
    #expect(
      await send(todos, to: mount) == .failure(.transport(code: URLError.Code.networkConnectionLost.rawValue))
    )
  }

  @Test("cancelling the calling task ends the request with cancelled and stops the handler")
  func cancellation() async {
    let handlerStarted = AsyncStream.makeStream(of: Void.self)
    let handlerCancelled = AsyncStream.makeStream(of: Void.self)
    let mount = InProcessTransport(
      StubHandler { _ in
        handlerStarted.continuation.yield()
        try? await Task.sleep(for: .seconds(600))
        handlerCancelled.continuation.yield()
        return .fail(.cancelled)
      }
    )
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let endpoint = todos
    let request = Task { await client.outcome(endpoint) }
    var started = handlerStarted.stream.makeAsyncIterator()
    await started.next()
    request.cancel()
    #expect(await request.value == .failure(.cancelled))
    var cancelled = handlerCancelled.stream.makeAsyncIterator()
    await cancelled.next()
  }
}
