import DataLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("A REST collection's endpoints: methods, paths and identifiers as the server gets them")
struct CollectionEndpointsTests {
  private struct Widget: Codable, Sendable, Equatable {
    var id: String
  }

  /// Answers every request with one widget (a list of one for the list) and records its request line, and the scheme of its
  /// `Authorization` header.
  private final class Server: Sendable {
    let lines = Locked<[String]>([])
    let transport: InProcessTransport

    init() {
      let lines = self.lines
      transport = InProcessTransport(
        StubHandler { request in
          let scheme = request.headers["authorization"]?.split(separator: " ").first ?? "none"
          lines.withLock { $0.append(request.method + " " + request.percentEncodedPath + " " + scheme) }
          let status = request.method == "DELETE" ? 204 : 200
          return .respond(
            InProcessResponse(
              status: status, headers: ["Content-Type": "application/json"],
              body: Data(Self.body(for: request, status: status).utf8)))
        })
    }

    private static func body(for request: InProcessRequest, status: Int) -> String {
      if status == 204 { return "" }
      return request.method == "GET" && request.pathSegments.count == 2 ? #"[{"id":"w"}]"# : #"{"id":"w"}"#
    }

    /// A client whose session holds a token.
    var client: URLSessionHTTPClient {
      let plain = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
      let tokens = InMemoryTokenStore(
        AuthTokens(accessToken: "token-a", refreshToken: "token-r", expiresAt: nil))
      return URLSessionHTTPClient(
        baseURL: transport.baseURL, transport: transport,
        interceptors: [AuthInterceptor(store: tokens, refresher: RemoteTokenRefresher(client: plain))])
    }
  }

  @Test(
    "an item is named by a number or by a text, each one path segment; an update may be a PUT; every call signed"
  )
  func identifiers() async throws {
    let server = Server()
    let widgets = CollectionEndpoints<Widget>(path: ["v2", "widgets"])
    let client = server.client

    _ = try await client.send(widgets.list)
    _ = try await client.send(widgets.item(id: 7))
    _ = try await client.send(widgets.item(id: "5f1c9a2e-7b3d-4e8a-9c61-0d2f4b6a8e13"))
    _ = try await client.send(widgets.update(id: "cus_N5a/1", ["name": "x"]))
    _ = try await client.send(widgets.update(id: 7, ["name": "z"], method: .put))
    _ = try await client.send(widgets.delete(id: "wid 9"))
    _ = try await client.send(widgets.create(["name": "y"]))

    #expect(
      server.lines.withLock { $0 } == [
        "GET /v2/widgets Bearer",
        "GET /v2/widgets/7 Bearer",
        "GET /v2/widgets/5f1c9a2e-7b3d-4e8a-9c61-0d2f4b6a8e13 Bearer",
        "PATCH /v2/widgets/cus_N5a%2F1 Bearer",
        "PUT /v2/widgets/7 Bearer",
        "DELETE /v2/widgets/wid%209 Bearer",
        "POST /v2/widgets Bearer",
      ])
  }

  @Test("a collection whose routes end with a slash sends every path with one, the item's too")
  func trailingSlash() async throws {
    let server = Server()
    let widgets = CollectionEndpoints<Widget>(path: ["api", "widgets"], endsWithSlash: true)
    let client = server.client

    _ = try await client.send(widgets.list)
    _ = try await client.send(widgets.item(id: 7))
    _ = try await client.send(widgets.create(["name": "y"]))
    _ = try await client.send(widgets.update(id: 7, ["name": "z"]))
    _ = try await client.send(widgets.delete(id: 7))

    #expect(
      server.lines.withLock { $0 } == [
        "GET /api/widgets/ Bearer",
        "GET /api/widgets/7/ Bearer",
        "POST /api/widgets/ Bearer",
        "PATCH /api/widgets/7/ Bearer",
        "DELETE /api/widgets/7/ Bearer",
      ])
  }
}
