import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the server receives: the request line and headers as they arrived on the socket.
@Suite(
  "Values reach the request line as data",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct RequestLineLoopbackTests {
  private func withServer(
    _ body: (URLSessionHTTPClient, SampleBackendConnection) async throws -> Void
  ) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      try await body(
        URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport), connection)
    }
  }

  @Test(
    "path segments, dots included, reach the server as exactly the intended segments",
    arguments: [
      (["v1", "users", "..", "secret"], "/v1/users/%2E%2E/secret"),
      (["anything", ".."], "/anything/%2E%2E"),
      ([".", "todos"], "/%2E/todos"),
      (["todos", "..", "..", "articles", "today"], "/todos/%2E%2E/%2E%2E/articles/today"),
      (["a/b", "?x=1", "#f"], "/a%2Fb/%3Fx%3D1/%23f"),
      (["%2E%2E", "x"], "/%252E%252E/x"),
      (["v1", "accounts:signInWithPassword"], "/v1/accounts:signInWithPassword"),
      (["users", "ada@example.com", "a;b=c"], "/users/ada@example.com/a%3Bb%3Dc"),
    ]
  )
  func segmentsArriveIntact(path: [String], target: String) async throws {
    try await withServer { client, connection in
      _ = await client.outcome(Endpoint.raw(path: path))
      let received = try await connection.received()
      #expect(received.map(\.line) == ["GET \(target) HTTP/1.1"])
    }
  }

  @Test("a path that ends with a slash reaches the server as one, in one request and with its method")
  func trailingSlash() async throws {
    try await withServer { client, connection in
      _ = await client.outcome(Endpoint.raw(method: .post, path: ["api", "token"]).endingWithSlash())
      let received = try await connection.received()
      #expect(received.map(\.line) == ["POST /api/token/ HTTP/1.1"])
    }
  }

  @Test(
    "a base URL's query goes out with every request, the endpoint's items after it",
    arguments: [
      ("?key=K%2B1", [URLQueryItem(name: "page", value: "2")], "/todos?key=K%2B1&page=2"),
      ("?key=K", [], "/todos?key=K"),
      (
        "?a=1&b", [URLQueryItem(name: "c", value: "3"), URLQueryItem(name: "d", value: nil)],
        "/todos?a=1&b&c=3&d"
      ),
      ("?", [URLQueryItem(name: "page", value: "2")], "/todos?page=2"),
      ("", [URLQueryItem(name: "q", value: "a b&c")], "/todos?q=a%20b%26c"),
    ]
  )
  func baseQueryIsKept(baseQuery: String, query: [URLQueryItem], target: String) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let base = try #require(URL(string: server.baseURL.absoluteString + baseQuery))
      let client = URLSessionHTTPClient(baseURL: base, transport: connection.transport)

      _ = await client.outcome(Endpoint.raw(path: ["todos"], query: query))

      let received = try await connection.received()
      #expect(received.map(\.line) == ["GET \(target) HTTP/1.1"])
    }
  }

  @Test("a base URL whose scheme is written in upper case is sent to")
  func upperCaseScheme() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let upper = try #require(
        URL(string: server.baseURL.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://")))
      let client = URLSessionHTTPClient(baseURL: upper, transport: connection.transport)

      // swift-corelibs-foundation sends nothing for `HTTP://`: an unsupported URL.
      _ = await client.outcome(Endpoint.raw(path: ["_probe", "echo"]))

      let received = try await connection.received()
      #expect(received.map(\.line) == ["GET /_probe/echo HTTP/1.1"])
    }
  }

  @Test("a client that has sent more paths than it keeps parsed still sends each to its own path")
  func everyPathArrivesAsAskedAcrossReuse() async throws {
    try await withServer { client, connection in
      // Twice as many URLs as the client keeps parsed, in turn, three times over: each one is
      // parsed, handed out again, and pushed out by others; then one asked for twice in a row.
      let paths = (1...16).map { ["todos", String($0)] } + [["articles", "today"]]
      var expected: [String] = []
      for path in Array(repeating: paths, count: 3).joined() + [["todos", "3"], ["todos", "3"]] {
        _ = await client.outcome(Endpoint.raw(path: path))
        expected.append("GET /\(path.joined(separator: "/")) HTTP/1.1")
      }
      let received = try await connection.received()
      #expect(received.map(\.line) == expected)
    }
  }

  @Test(
    "a method, header value, Accept or content type with CR, LF or NUL fails before anything is sent",
    arguments: [
      Endpoint.raw(method: HTTPMethod(rawValue: "GET /admin HTTP/1.1\r\nX-Injected: 1\r\n"), path: ["todos"]),
      Endpoint.raw(method: HTTPMethod(rawValue: "GET X"), path: ["todos"]),
      Endpoint.raw(method: HTTPMethod(rawValue: ""), path: ["todos"]),
      Endpoint.raw(path: ["todos"], headers: ["X-Note": "a\r\nX-Injected: 1"]),
      Endpoint.raw(path: ["todos"], headers: ["X-Note": "a\u{0}b"]),
      Endpoint.raw(path: ["todos"], accept: "application/json\r\nX-Injected: 1"),
      Endpoint.raw(
        method: .post, path: ["todos"],
        body: .data(Data("{}".utf8), contentType: "application/json\nX-Injected: 1")),
      Endpoint.raw(path: ["todos"], headers: ["Accept": "text/html"]),
      Endpoint.raw(path: ["todos"], headers: ["accept": "*/*"]),
    ]
  )
  func nothingForgedIsSent(endpoint: Endpoint<Data>) async throws {
    try await withServer { client, connection in
      let result = await client.outcome(endpoint)
      guard case .failure(.invalidRequest(let detail)) = result else {
        Issue.record("expected invalid request, got \(result)")
        return
      }
      #expect(!detail.contains("Injected"), "the forged text is echoed: \(detail)")
      let received = try await connection.received()
      let counters = try await connection.counters()
      #expect(received.isEmpty)
      #expect(counters.requests == 0)
    }
  }

  private struct ForgingInterceptor: RequestInterceptor {
    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      var forged = request
      // A token that came from a hostile server, say. `setValue` would drop such a value
      // silently; assigning the whole dictionary keeps it.
      var headers = request.allHTTPHeaderFields ?? [:]
      headers["Authorization"] = "Bearer at-1\r\nX-Injected: 1"
      forged.allHTTPHeaderFields = headers
      return forged
    }
  }

  @Test("a line break an interceptor puts into a header fails before anything is sent")
  func interceptorHeaderIsChecked() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, transport: connection.transport, interceptors: [ForgingInterceptor()])
      let result = await client.outcome(Endpoint.raw(path: ["todos"]))
      guard case .failure(.invalidRequest) = result else {
        Issue.record("expected invalid request, got \(result)")
        return
      }
      let received = try await connection.received()
      #expect(received.isEmpty)
    }
  }

  @Test(
    "an authenticated request carries one Authorization field, the session's, whatever the endpoint or an earlier interceptor set"
  )
  func oneAuthorizationField() async throws {
    /// Writes a lower-case field straight into the fields, where `setValue` would have
    /// normalised the name.
    struct LowerCaseAuthorization: RequestInterceptor {
      func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
        var request = request
        request.allHTTPHeaderFields?["authorization"] = "Basic ZDpk"
        return request
      }

      func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
        .doNotRetry
      }
    }
    try await withServer { _, connection in
      let tokens = AuthTokens(accessToken: "at-session", refreshToken: "rt-session", expiresAt: nil)
      let client = URLSessionHTTPClient(
        baseURL: connection.baseURL,
        transport: connection.transport,
        interceptors: [
          LowerCaseAuthorization(),
          AuthInterceptor(store: InMemoryTokenStore(tokens), refresher: FailingRefresher()),
        ]
      )
      _ = await client.outcome(
        Endpoint<[TestTodo]>(
          path: ["todos"], headers: ["authorization": "Basic ZW5kcG9pbnQ="], requiresAuthentication: true))
      let received = try #require(try await connection.received().first)
      let fields = received.headers.filter { $0.first?.lowercased() == "authorization" }
      #expect(fields == [["Authorization", "Bearer at-session"]])
    }
  }

  @Test(
    "the token reaches the socket once, under the backend's own header and scheme",
    arguments: TokenPresentation.examples)
  func tokenUnderTheBackendsHeader(presentation: TokenPresentation) async throws {
    let header = presentation.header
    try await withServer { _, connection in
      let tokens = AuthTokens(accessToken: "at-wire", refreshToken: "rt-wire", expiresAt: nil)
      let auth = AuthInterceptor(
        store: InMemoryTokenStore(tokens), refresher: FailingRefresher(), header: header,
        scheme: presentation.scheme)
      let client = URLSessionHTTPClient(
        baseURL: connection.baseURL, transport: connection.transport, interceptors: [auth])
      _ = try await client.send(Endpoint<[TestTodo]>(path: ["todos"], requiresAuthentication: true))
      let received = try #require(try await connection.received().first)
      let fields = received.headers.filter { $0.first?.lowercased() == header.lowercased() }
      #expect(fields == [[header, presentation.value("at-wire")]])
      if header != "Authorization" {
        #expect(received.header("Authorization") == nil, "no Bearer token beside the backend's own")
      }
    }
  }

  @Test("the Accept header sent is the one validation checks against")
  func acceptIsTheEndpointsOwn() async throws {
    try await withServer { client, connection in
      _ = try await client.send(Endpoint<[TestTodo]>(path: ["todos"]))
      let received = try #require(try await connection.received().first)
      #expect(received.header("Accept") == "application/json")
      #expect(received.headers.filter { $0.first?.lowercased() == "accept" }.count == 1)
    }
  }
}
