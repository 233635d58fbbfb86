import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

/// An endpoint with a base URL of its own (an auth server on another host) is sent there, and the
/// session's token still goes only to the client's origin. Two loopback servers are two origins.
@Suite(
  "An endpoint on a server of its own",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct EndpointBaseURLTests {
  private struct Echo: Decodable, Sendable, Equatable {
    var echo: Bool
  }

  @Test("its path goes under its own base URL's path, on its own server, and a link there is followed")
  func sentToItsOwnServer() async throws {
    try await LoopbackSampleAPI.withTwoOrigins { api, elsewhere in
      let client = URLSessionHTTPClient(baseURL: api.baseURL, transport: api.transport)
      var endpoint = Endpoint<Echo>(method: .post, path: ["echo"], body: .json(["grant": "password"]))
      endpoint.baseURL = elsewhere.baseURL.appendingPathComponent("_probe")
      #expect(try await client.send(endpoint) == Echo(echo: true))
      let next = try #require(URL(string: elsewhere.baseURL.absoluteString + "/_probe/echo?page=2"))
      #expect(try await client.send(endpoint.following(next)) == Echo(echo: true))

      let lines = try await elsewhere.received().map(\.line)
      #expect(lines == ["POST /_probe/echo HTTP/1.1", "POST /_probe/echo?page=2 HTTP/1.1"])
      #expect(try await api.received().isEmpty, "the client's own server got nothing")
    }
  }

  @Test(
    "a login redirected with 307 within its own server is repeated there, body and all, and not to the client's"
  )
  func redirectWithinItsOwnServer() async throws {
    try await LoopbackSampleAPI.withTwoOrigins { api, elsewhere in
      let client = URLSessionHTTPClient(baseURL: api.baseURL, transport: api.transport)
      let login = #"{"username":"ada","password":"pw-own-server-42"}"#
      func redirected(to target: URL) -> Endpoint<Echo> {
        var endpoint = Endpoint<Echo>(
          method: .post, path: ["_probe", "redirect"],
          query: [
            URLQueryItem(name: "status", value: "307"),
            URLQueryItem(name: "to", value: target.absoluteString + "/_probe/echo"),
          ],
          body: .data(Data(login.utf8), contentType: "application/json"))
        endpoint.baseURL = elsewhere.baseURL
        return endpoint
      }

      #expect(try await client.send(redirected(to: elsewhere.baseURL)) == Echo(echo: true))
      let repeated = try await elsewhere.probeLog().received.last
      #expect(repeated?.path == "/_probe/echo")
      #expect(repeated?.body == login)

      guard case .failure(.badStatus(307, _)) = await client.outcome(redirected(to: api.baseURL)) else {
        Issue.record("a login was repeated to the client's origin")
        return
      }
      #expect(try await api.probeLog().received.isEmpty, "the password reached the client's origin")
    }
  }

  @Test("an authenticated endpoint is signed on the client's origin and refused, unsent, on another")
  func tokenStaysWithTheClientsOrigin() async throws {
    try await LoopbackSampleAPI.withTwoOrigins { api, elsewhere in
      try await api.configure(requireAuth: true)
      let interceptor = AuthInterceptor(
        store: InMemoryTokenStore(try await api.login()), refresher: SampleAPIRefresher(connection: api))
      let client = api.authenticatedClient(interceptor)

      var away = ProtectedEndpoints.todo(1)
      away.baseURL = elsewhere.baseURL
      guard case .failure(.invalidRequest) = await client.outcome(away) else {
        Issue.record("an authenticated endpoint on another origin was not refused")
        return
      }
      #expect(try await elsewhere.received().isEmpty, "nothing reached the other origin")

      var home = ProtectedEndpoints.todo(1)
      home.baseURL = api.baseURL
      #expect(try await client.send(home).id == 1)
      #expect(try await api.counters().authorized == 1, "the client's own origin got the token")
    }
  }
}
