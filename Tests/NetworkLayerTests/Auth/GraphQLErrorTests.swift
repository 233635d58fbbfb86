import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// A GraphQL backend answers 200 to every query and says what went wrong in the body's `errors`.
/// An endpoint's `map` turns those into the client's errors, as an app for such a backend does.
@Suite("A GraphQL backend: errors in a 200 answer, as the server sees them")
struct GraphQLErrorTests {
  private static let stale = AuthTokens(accessToken: "at-stale", refreshToken: "rt-stale", expiresAt: nil)
  private static let fresh = AuthTokens(accessToken: "at-fresh", refreshToken: "rt-fresh", expiresAt: nil)

  private struct Query: Encodable, Sendable {
    var query = "query { todo(id: 1) { id title } }"
  }

  /// The answer's envelope: `data`, `null` when the query failed, and `errors`.
  private struct Answer: Decodable, Sendable {
    struct Failure: Decodable, Sendable {
      struct Extensions: Decodable, Sendable {
        var code: String?
      }
      var message: String
      var extensions: Extensions?
    }
    struct Payload: Decodable, Sendable {
      var todo: TestTodoTitle
    }
    var data: Payload?
    var errors: [Failure]?
  }

  private struct TestTodoTitle: Decodable, Sendable, Equatable {
    var id: Int
    var title: String
  }

  /// The query as an app for this backend writes it: a token the server could not verify is a
  /// 401 to the auth interceptor, any other error the server's refusal in its own words.
  private static let todo = Endpoint<Answer>(
    method: .post, path: ["graphql"], body: .json(Query()), requiresAuthentication: true, isIdempotent: true
  )
  .map { answer throws(NetworkError) -> TestTodoTitle in
    if let failure = answer.errors?.first {
      let code = failure.extensions?.code
      if code == "UNAUTHENTICATED" || code == "invalid-jwt" { throw .badStatus(code: 401, bodyExcerpt: nil) }
      throw .refused(status: 200, message: failure.message, fieldErrors: [:])
    }
    guard let data = answer.data else { throw .noData }
    return data.todo
  }

  /// A server that accepts only `at-fresh`, and refuses every title with `refusal` when set;
  /// records the bearer token of every query.
  private final class Server: Sendable {
    let tokens = Locked<[String?]>([])
    let mount: InProcessTransport

    init(errorCode: String, refusal: String? = nil) {
      let tokens = self.tokens
      mount = InProcessTransport(
        StubHandler { request in
          let token = request.header("Authorization")
          tokens.withLock { $0.append(token) }
          let body: String
          if token != "Bearer at-fresh" {
            body =
              #"{"data":null,"errors":[{"message":"Could not verify \#(token ?? "nothing")","extensions":{"code":"\#(errorCode)"}}]}"#
          } else if let refusal {
            body =
              #"{"data":null,"errors":[{"message":"\#(refusal)","extensions":{"code":"BAD_USER_INPUT"}}]}"#
          } else {
            body = #"{"data":{"todo":{"id":1,"title":"a"}}}"#
          }
          return .respond(
            InProcessResponse(
              status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
        })
    }

    func client(_ interceptor: AuthInterceptor) -> URLSessionHTTPClient {
      URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount, interceptors: [interceptor])
    }
  }

  @Test(
    "a token the server could not verify, said in a 200's errors, is renewed once and the query sent again",
    arguments: ["UNAUTHENTICATED", "invalid-jwt"]
  )
  func unverifiedTokenIsRenewed(errorCode: String) async throws {
    let server = Server(errorCode: errorCode)
    let refresher = StaticRefresher(fresh: Self.fresh)
    let store = InMemoryTokenStore(Self.stale)

    let todo = try await server.client(AuthInterceptor(store: store, refresher: refresher)).send(Self.todo)

    #expect(todo == TestTodoTitle(id: 1, title: "a"))
    #expect(server.tokens.withLock { $0 } == ["Bearer at-stale", "Bearer at-fresh"])
    #expect(refresher.calls.withLock { $0 } == 1)
    #expect(store.tokens == Self.fresh)
  }

  @Test("any other error in a 200's errors is the server's refusal, in its own words, credentials removed")
  func otherErrorIsARefusal() async throws {
    let server = Server(errorCode: "UNAUTHENTICATED", refusal: "The title at-fresh is too long.")
    let client = server.client(
      AuthInterceptor(store: InMemoryTokenStore(Self.fresh), refresher: StaticRefresher(fresh: Self.fresh)))

    let outcome = await client.outcome(Self.todo)

    #expect(
      outcome
        == .failure(.refused(status: 200, message: "The title <redacted> is too long.", fieldErrors: [:])))
    #expect(server.tokens.withLock { $0 } == ["Bearer at-fresh"], "a refusal is not sent again")
  }
}
