import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend that takes the access token as a query item, as Firebase's Realtime Database takes
/// an ID token in `auth`: `GET /todos/1.json?auth=…`.
@Suite("The access token in the backend's query item")
struct TokenQueryItemTests {
  /// A server that takes only `auth=at-new`, and records each request's query as it arrived and
  /// its `Authorization` header.
  private final class Server: Sendable {
    let seen = Locked<[(query: String, authorization: String?)]>([])
    let transport: InProcessTransport

    init() {
      let seen = self.seen
      transport = InProcessTransport(
        StubHandler { request in
          let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
          seen.withLock { $0.append((query, request.header("Authorization"))) }
          guard request.query.last(where: { $0.name == "auth" })?.value == "at-new" else {
            return .respond(
              InProcessResponse(
                status: 401, headers: ["Content-Type": "application/json"],
                body: Data(#"{"error":"Auth token is expired"}"#.utf8)))
          }
          return .respond(
            InProcessResponse(
              status: 200, headers: ["Content-Type": "application/json"],
              body: Data(#"{"userId":1,"id":1,"title":"a","completed":false}"#.utf8)))
        }
      )
    }
  }

  @Test(
    "the token goes in the query item after the endpoint's own, replacing one the endpoint set, and a 401 for it is refreshed once and retried there"
  )
  func presentedInTheQuery() async throws {
    let server = Server()
    let session = StaleSession()
    let client = session.client(on: server.transport) { store, refresher in
      AuthInterceptor(store: store, refresher: refresher, queryItem: "auth")
    }
    let query = [
      URLQueryItem(name: "orderBy", value: "\"$key\""), URLQueryItem(name: "auth", value: "forged"),
    ]

    let todo = try await client.send(
      Endpoint<TestTodo>(path: ["todos", "1.json"], query: query, requiresAuthentication: true))

    #expect(todo.id == 1)
    let seen = server.seen.withLock { $0 }
    #expect(seen.map(\.query) == [#"orderBy="$key"&auth=at-old"#, #"orderBy="$key"&auth=at-new"#])
    #expect(seen.allSatisfy { $0.authorization == nil }, "no token in a header beside the query's")
    // The stale token was read back from the query: without it, the 401 would have been retried
    // with the same token and no refresh.
    #expect(session.refresher.calls.withLock { $0 } == 1)
    let log = session.log
    #expect(log.contains("auth="), "the verbose log shows the item, its value redacted:\n\(log)")
    for secret in ["at-old", "at-new"] {
      #expect(!log.contains(secret), "a token leaked into the log:\n\(log)")
    }
  }

  @Test(
    "on the wire the token is the last query item, encoded as every other, and no header carries it",
    .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
    .timeLimit(.minutes(1))
  )
  func onTheWire() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let token = AuthTokens(accessToken: "a+b/c=d", refreshToken: "rt", expiresAt: nil)
      let interceptor = AuthInterceptor(
        store: InMemoryTokenStore(token), refresher: FailingRefresher(), queryItem: "auth")
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(), interceptors: [interceptor])

      _ = await client.outcome(
        .raw(
          path: ["_probe", "raw"], query: [URLQueryItem(name: "page", value: "2")],
          requiresAuthentication: true))

      let received = try await connection.received()
      #expect(received.map(\.line) == ["GET /_probe/raw?page=2&auth=a%2Bb%2Fc%3Dd HTTP/1.1"])
      #expect(received.first?.header("Authorization") == nil)
    }
  }
}
