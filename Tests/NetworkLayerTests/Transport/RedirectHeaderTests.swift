import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a redirected request carries, read from what the servers recorded. Two loopback servers
/// are two origins (different ports).
@Suite(
  "Redirected requests against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(2))
)
struct RedirectHeaderTests {
  private struct Echo: Decodable, Sendable, Equatable {
    var echo: Bool
  }

  private static let credentials = [
    "Authorization": "Bearer top-secret",
    "Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
    "Cookie": "session=abc123",
    "X-Api-Key": "key-123",
  ]
  private static let body = #"{"title":"carried"}"#

  /// A `method` request (a POST unless said) of `body` with `headers`, which the server redirects
  /// with `status` to the echo of `target`.
  private static func redirect(
    status: Int,
    to target: URL,
    method: HTTPMethod = .post,
    headers: [String: String] = credentials.merging(["X-Trace": "trace-1"]) { first, _ in first },
    body: String = body
  ) -> Endpoint<Echo> {
    Endpoint<Echo>(
      method: method,
      path: ["_probe", "redirect"],
      query: [
        URLQueryItem(name: "status", value: String(status)),
        URLQueryItem(name: "to", value: target.absoluteString + "/_probe/echo"),
      ],
      headers: headers,
      body: .data(Data(body.utf8), contentType: "application/json")
    )
  }

  /// Two loopback servers, so two origins: the API, which the client is for, and another.
  private struct TwoOrigins {
    let client: URLSessionHTTPClient
    let api: SampleBackendConnection
    let elsewhere: SampleBackendConnection
  }

  private static func withTwoOrigins(_ body: (TwoOrigins) async throws -> Void) async throws {
    try await LoopbackSampleAPI.withTwoOrigins { api, elsewhere in
      try await body(
        TwoOrigins(
          client: URLSessionHTTPClient(baseURL: api.baseURL, transport: api.transport), api: api,
          elsewhere: elsewhere))
    }
  }

  @Test(
    "a redirect to another origin arrives without any credential header, and keeps the others",
    arguments: [302, 303, 307, 308]
  )
  func crossOriginDropsCredentials(status: Int) async throws {
    try await Self.withTwoOrigins { origins in
      _ = try await origins.client.send(Self.redirect(status: status, to: origins.elsewhere.baseURL))

      let sent = try #require(try await origins.api.probeLog().received.first)
      for name in Self.credentials.keys {
        #expect(sent.headers[name.lowercased()] != nil, "\(name) was sent to the API itself")
      }
      let arrived = try #require(try await origins.elsewhere.probeLog().received.first)
      for name in Self.credentials.keys {
        #expect(arrived.headers[name.lowercased()] == nil, "\(name) followed a \(status) to another origin")
      }
      #expect(arrived.headers["x-trace"] == "trace-1", "a header that is no credential is kept")
    }
  }

  @Test("a 307 or 308 keeps the method and the body, across origins too", arguments: [307, 308])
  func methodAndBodySurvive(status: Int) async throws {
    try await Self.withTwoOrigins { origins in
      _ = try await origins.client.send(Self.redirect(status: status, to: origins.api.baseURL))
      _ = try await origins.client.send(Self.redirect(status: status, to: origins.elsewhere.baseURL))

      let home = try #require(try await origins.api.probeLog().received.first { $0.path == "/_probe/echo" })
      let away = try #require(try await origins.elsewhere.probeLog().received.first)
      for arrived in [home, away] {
        #expect(arrived.path == "/_probe/echo")
        #expect(arrived.method == "POST")
        #expect(arrived.body == Self.body)
      }
      #expect(
        home.headers["authorization"] == "Bearer top-secret", "a same-origin redirect keeps credentials")
      #expect(home.headers["x-api-key"] == "key-123")
    }
  }

  @Test(
    "a 301 or 302 after a PUT, PATCH or DELETE repeats it with its body, as after a 307",
    arguments: [301, 302], [HTTPMethod.put, .patch, .delete]
  )
  func movedKeepsBodyOfOtherMethods(status: Int, method: HTTPMethod) async throws {
    try await Self.withTwoOrigins { origins in
      _ = try await origins.client.send(
        Self.redirect(status: status, to: origins.api.baseURL, method: method))

      let arrived = try #require(
        try await origins.api.probeLog().received.first { $0.path == "/_probe/echo" })
      #expect(arrived.method == method.rawValue)
      #expect(arrived.body == Self.body, "Foundation sent the \(method.rawValue) on without its body")
      #expect(
        arrived.headers["authorization"] == "Bearer top-secret", "a same-origin redirect keeps credentials")
    }
  }

  @Test(
    "a 301, 302 or 303 after a POST goes on as a GET without the body or the headers describing it",
    arguments: [301, 302, 303]
  )
  func changedMethodDropsBody(status: Int) async throws {
    try await Self.withTwoOrigins { origins in
      _ = try await origins.client.send(Self.redirect(status: status, to: origins.elsewhere.baseURL))

      let arrived = try #require(try await origins.elsewhere.probeLog().received.first)
      #expect(arrived.method == "GET")
      #expect(arrived.body.isEmpty)
      #expect(arrived.headers["content-type"] == nil, "Foundation left the body's Content-Type on the GET")
    }
  }

  @Test(
    "a 307 or 308 to another origin is not followed when its body holds credentials: the redirect is the answer",
    arguments: [307, 308]
  )
  func credentialBodyStaysHome(status: Int) async throws {
    try await Self.expectBodyStaysHome(
      #"{"username":"demo","password":"pw-redirect-secret-77"}"#, method: .post, status: status)
  }

  @Test(
    "a 301 or 302 after a PUT holding a password is not followed to another origin, and is within its own",
    arguments: [301, 302]
  )
  func movedCredentialBodyStaysHome(status: Int) async throws {
    try await Self.expectBodyStaysHome(#"{"password":"pw-moved-secret-78"}"#, method: .put, status: status)
  }

  /// Sends `body` with `method`, redirected with `status` to the other origin and then to the
  /// API's own, and checks at both servers that it stayed home: the other origin received
  /// nothing and the redirect was the answer, while the API's echo got the repeat, method and
  /// body as sent.
  private static func expectBodyStaysHome(
    _ body: String, method: HTTPMethod, status: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await withTwoOrigins { origins in
      let away = await origins.client.outcome(
        redirect(status: status, to: origins.elsewhere.baseURL, method: method, headers: [:], body: body))
      let home = await origins.client.outcome(
        redirect(status: status, to: origins.api.baseURL, method: method, headers: [:], body: body))

      guard case .failure(.badStatus(status, _)) = away else {
        Issue.record(
          "a body with a password redirected to another origin was answered \(away)",
          sourceLocation: sourceLocation)
        return
      }
      #expect(
        try await origins.elsewhere.probeLog().received.isEmpty, "the password reached another origin",
        sourceLocation: sourceLocation)
      #expect(
        home == .success(Echo(echo: true)), "the same origin still gets the repeat",
        sourceLocation: sourceLocation)
      let repeated = try await origins.api.probeLog().received.last
      #expect(repeated?.path == "/_probe/echo", sourceLocation: sourceLocation)
      #expect(repeated?.method == method.rawValue, sourceLocation: sourceLocation)
      #expect(repeated?.body == body, sourceLocation: sourceLocation)
    }
  }

  @Test(
    "a 305 or 306 is no redirect: its response is the answer, and neither origin is sent the request again",
    arguments: [305, 306]
  )
  func obsoleteStatusesAreAnswers(status: Int) async throws {
    try await Self.withTwoOrigins { origins in
      let away = await origins.client.outcome(Self.redirect(status: status, to: origins.elsewhere.baseURL))
      let home = await origins.client.outcome(Self.redirect(status: status, to: origins.api.baseURL))

      for outcome in [away, home] {
        guard case .failure(.badStatus(status, _)) = outcome else {
          Issue.record("a \(status) was answered \(outcome)")
          return
        }
      }
      #expect(try await origins.elsewhere.probeLog().received.isEmpty, "a POST reached another origin")
      let paths = try await origins.api.probeLog().received.map(\.path)
      #expect(paths == ["/_probe/redirect", "/_probe/redirect"], "the API got each POST once")
    }
  }

  @Test("the session's cookie jar adds its cookies only when the client is configured to")
  func cookieJarIsOptIn() async throws {
    try await LoopbackSampleAPI.with { api in
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.httpShouldSetCookies = true
      let jar = try #require(configuration.httpCookieStorage)
      let cookie = try #require(
        HTTPCookie(properties: [
          .domain: "127.0.0.1", .path: "/", .name: "jar", .value: "from-the-jar", .originURL: api.baseURL,
        ]))
      jar.setCookie(cookie)
      defer { jar.deleteCookie(cookie) }
      let session = URLSession(configuration: configuration)
      let connection = SampleBackendConnection(baseURL: api.baseURL, session: .loopbackTesting())
      let echo = Endpoint<Echo>(path: ["_probe", "echo"])

      _ = try await URLSessionHTTPClient(baseURL: api.baseURL, session: session).send(echo)
      _ = try await URLSessionHTTPClient(baseURL: api.baseURL, session: session, sendsCookies: true).send(
        echo)

      let received = try await connection.probeLog().received
      #expect(received.count == 2)
      #expect(received.first?.headers["cookie"] == nil, "no cookie unless configured")
      #expect(received.last?.headers["cookie"] == "jar=from-the-jar", "the jar works when allowed")
    }
  }
}
