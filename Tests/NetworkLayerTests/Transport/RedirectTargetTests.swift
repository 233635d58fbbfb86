import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a redirect goes, read from the request lines the loopback server received.
@Suite(
  "Redirect targets against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(2))
)
struct RedirectTargetTests {
  private struct Echo: Decodable, Sendable, Equatable {
    var echo: Bool
  }

  /// A redirect answered with `Location: <location>`, exactly as given.
  private static func redirect(status: Int, to location: String) -> Endpoint<Echo> {
    Endpoint<Echo>(
      path: ["_probe", "redirect"],
      query: [
        URLQueryItem(name: "status", value: String(status)), URLQueryItem(name: "to", value: location),
      ],
      headers: ["Authorization": "Bearer top-secret"]
    )
  }

  /// The path and query of each request line the server received, oldest first.
  private static func targets(_ connection: SampleBackendConnection) async throws -> [String] {
    try await connection.received().map {
      $0.line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    }
  }

  private static func withServer(
    _ body: (URLSessionHTTPClient, SampleBackendConnection, URL) async throws -> Void
  ) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)
      try await body(client, connection, server.baseURL)
    }
  }

  @Test(
    "a redirect to anything but an http(s) URL with a host ends the call as an unsupported URL, and sends nothing more",
    arguments: [302, 307],
    [
      "file:///etc/passwd", "data:text/plain,hello", "javascript:alert(1)", "ftp://127.0.0.1:1/file",
      "http:no-host",
    ]
  )
  func otherSchemesAreRefused(status: Int, location: String) async throws {
    try await Self.withServer { client, connection, _ in
      let result = await client.outcome(Self.redirect(status: status, to: location))

      #expect(result == .failure(.transport(code: URLError.Code.unsupportedURL.rawValue)))
      // swift-corelibs-foundation alone sent `GET /etc/passwd`, `GET /text/plain,hello` and
      // `GET /alert(1)` to the API's own host, with the request's credentials.
      let targets = try await Self.targets(connection)
      #expect(targets.count == 1, "after the redirect itself, the server received \(targets.dropFirst())")
    }
  }

  @Test("a Location of only a query keeps the path it answered", arguments: [302, 307])
  func queryOnlyLocation(status: Int) async throws {
    try await Self.withServer { client, connection, _ in
      // `?to=...` resolves against `/_probe/redirect`, which then redirects to the echo.
      let location = "?status=\(status)&to=%2F_probe%2Fecho"

      _ = try await client.send(Self.redirect(status: status, to: location))

      let targets = try await Self.targets(connection)
      #expect(targets.dropFirst().first == "/_probe/redirect" + location)
      #expect(targets.last == "/_probe/echo")
    }
  }

  @Test(
    "a Location is resolved as RFC 3986 says: dot segments removed, percent-encoded dots sent as they are",
    arguments: [302, 307]
  )
  func dotSegments(status: Int) async throws {
    try await Self.withServer { client, connection, _ in
      _ = try await client.send(Self.redirect(status: status, to: "/_probe/x/../echo"))
      // Encoded dots are data, not a step up: the server must see them, and decide.
      let encoded = await client.outcome(Self.redirect(status: status, to: "/_probe/%2e%2e/_probe/echo"))

      guard case .failure(.badStatus(404, _)) = encoded else {
        Issue.record("a path with encoded dots was answered \(encoded), not the probes' 404")
        return
      }
      // swift-corelibs-foundation decoded the dots and resolved them: it sent `/_probe/echo`.
      let targets = try await Self.targets(connection)
      #expect(targets.count == 4)
      #expect(targets.dropFirst(1).first == "/_probe/echo")
      #expect(targets.dropFirst(3).first == "/_probe/%2e%2e/_probe/echo")
    }
  }

  @Test("a Location whose scheme is in upper case is followed", arguments: [302, 307])
  func upperCaseScheme(status: Int) async throws {
    try await Self.withServer { client, connection, baseURL in
      let location =
        baseURL.absoluteString.replacingOccurrences(of: "http://", with: "HTTP://") + "/_probe/echo"

      _ = try await client.send(Self.redirect(status: status, to: location))

      let targets = try await Self.targets(connection)
      #expect(targets.last == "/_probe/echo")
    }
  }

  @Test(
    "a redirect loop ends with too many redirects after 20, whatever the status",
    arguments: [301, 302, 303, 307, 308]
  )
  func redirectLoop(status: Int) async throws {
    try await Self.withServer { client, connection, _ in
      let loop = Endpoint<Echo>(
        path: ["_probe", "redirect"],
        query: [URLQueryItem(name: "status", value: String(status)), URLQueryItem(name: "loop", value: "1")])

      let result = await client.outcome(loop)

      #expect(result == .failure(.transport(code: URLError.Code.httpTooManyRedirects.rawValue)))
      // The request and 20 redirects, whether Foundation follows them within one task (301-303)
      // or the transport sends each as a task of its own (307, 308).
      let targets = try await Self.targets(connection)
      #expect(targets.count == 21)
    }
  }

  @Test(
    "an endpoint that does not follow redirects gets the redirect itself, its Location as sent, and nothing more is sent",
    arguments: [301, 302, 303, 307, 308],
    ["myapp://callback?code=one-time", "/_probe/echo"]
  )
  func redirectDelivered(status: Int, location: String) async throws {
    try await Self.withServer { client, connection, _ in
      var endpoint = Endpoint<NoContent>(
        method: .post, path: ["_probe", "redirect"],
        query: [
          URLQueryItem(name: "status", value: String(status)), URLQueryItem(name: "to", value: location),
        ],
        acceptableStatusCodes: 200..<400)
      endpoint.followsRedirects = false

      let response = try await client.response(for: endpoint)

      #expect(response.statusCode == status)
      #expect(response.value(forHTTPHeaderField: "Location") == location)
      let targets = try await Self.targets(connection)
      #expect(targets.count == 1, "after the redirect itself, the server received \(targets.dropFirst())")
    }
  }
}
