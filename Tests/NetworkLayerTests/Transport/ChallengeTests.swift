import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

/// A 401 that carries a challenge never completed on swift-corelibs-foundation (issue 5456): the
/// call sat until the client's deadline and the auth interceptor never saw it.
@Suite(
  "Authentication challenges",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(2))
)
struct ChallengeTests {
  static let schemes = [
    #"Bearer realm="api", error="invalid_token""#,
    #"Basic realm="api""#,
    #"Digest realm="api", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#,
    #"Custom realm="api""#,
    "Negotiate",
  ]

  @Test("a 401 is delivered as bad status 401 at once, whatever its challenge", arguments: schemes)
  func challengeIsDelivered(scheme: String) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      try await connection.challenge("/todos/1", scheme: scheme)
      // A deadline far beyond "at once": hanging until it would show as a timeout.
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, transport: connection.transport, defaultDeadline: .seconds(30))
      let started = ContinuousClock.now

      let result = await client.outcome(Endpoint<TestTodo>(path: ["todos", "1"]))

      let elapsed = ContinuousClock.now - started
      #expect(result == .failure(.badStatus(code: 401, bodyExcerpt: #"{"error":"authentication required"}"#)))
      #expect(elapsed < .seconds(20), "the 401 took \(elapsed)")
      #expect(try await connection.probeLog().challenged == 1)
      print("challenge \(scheme.prefix(while: { $0 != " " })): 401 delivered after \(elapsed)")
    }
  }

  @Test("the auth interceptor sees a challenged 401, refreshes once and retries", arguments: schemes)
  func interceptorActsOnChallenge(scheme: String) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: true)
      let interceptor = AuthInterceptor(
        store: InMemoryTokenStore(try await connection.login()),
        refresher: SampleAPIRefresher(connection: connection)
      )
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, transport: connection.transport, interceptors: [interceptor],
        defaultDeadline: .seconds(30))
      try await connection.challenge("/todos/1", scheme: scheme)
      let started = ContinuousClock.now

      let todo = try await client.send(ProtectedEndpoints.todo(1))

      let elapsed = ContinuousClock.now - started
      #expect(todo.id == 1)
      let counters = try await connection.counters()
      #expect(counters.refreshes == 1, "one refresh after the 401")
      #expect(counters.paths["GET /todos/1"] == 1, "the retry reached the real route")
      #expect(try await connection.probeLog().challenged == 1)
      #expect(elapsed < .seconds(20), "the call took \(elapsed)")
    }
  }
}
