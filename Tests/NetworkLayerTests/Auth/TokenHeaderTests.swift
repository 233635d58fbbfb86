import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// How a backend wants the access token presented: a header, and a scheme before the token.
struct TokenPresentation: Sendable, CustomTestStringConvertible {
  let header: String
  let scheme: String?
  var testDescription: String { "\(header): \(scheme.map { "\($0) " } ?? "")…" }

  /// Backends that do not take `Authorization: Bearer …`: Django REST framework's
  /// `Authorization: Token …`, and a bare token in `X-Session`, which is no credential header
  /// until the interceptor says it is one.
  static let examples = [
    TokenPresentation(header: "Authorization", scheme: "Token"),
    TokenPresentation(header: "X-Session", scheme: nil),
  ]

  /// The header's value for `token`.
  func value(_ token: String) -> String { (scheme.map { "\($0) " } ?? "") + token }
}

@Suite("The access token under the backend's own header and scheme")
struct TokenHeaderTests {
  /// A server that takes only `at-new`, presented its way, and records what each request carried
  /// in that header and in `Authorization`.
  private final class Server: Sendable {
    let seen = Locked<[(presented: String?, authorization: String?)]>([])
    let transport: InProcessTransport

    init(_ presentation: TokenPresentation) {
      let seen = self.seen
      transport = InProcessTransport(
        StubHandler { request in
          let presented = request.header(presentation.header)
          seen.withLock { $0.append((presented, request.header("Authorization"))) }
          guard presented == presentation.value("at-new") else {
            return .respond(
              InProcessResponse(
                status: 401, headers: ["WWW-Authenticate": presentation.scheme ?? "Session"],
                body: Data(#"{"detail":"Invalid token."}"#.utf8)))
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
    "the token goes under the backend's header and scheme, and a 401 for it is refreshed once and retried under them",
    arguments: TokenPresentation.examples)
  func presentedTheBackendsWay(presentation: TokenPresentation) async throws {
    let server = Server(presentation)
    let session = StaleSession()
    let client = session.client(on: server.transport) { store, refresher in
      AuthInterceptor(
        store: store, refresher: refresher, header: presentation.header, scheme: presentation.scheme)
    }

    let todo = try await client.send(Endpoint<TestTodo>(path: ["todos", "1"], requiresAuthentication: true))

    #expect(todo.id == 1)
    let seen = server.seen.withLock { $0 }
    #expect(seen.map(\.presented) == [presentation.value("at-old"), presentation.value("at-new")])
    if presentation.header != "Authorization" {
      #expect(seen.allSatisfy { $0.authorization == nil }, "no Bearer token beside the backend's own")
    }
    // The stale token was read back from the backend's header: without it, the 401 would have
    // been retried with the same token and no refresh.
    #expect(session.refresher.calls.withLock { $0 } == 1)
    let log = session.log
    #expect(log.contains(presentation.header), "the verbose log lists the header")
    for secret in ["at-old", "at-new"] {
      #expect(!log.contains(secret), "a token leaked into the log:\n\(log)")
    }
  }
}
