import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite(
  "Credentials and redirects",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct RedirectCredentialTests {
  @Test("a redirect to another origin arrives without the bearer token; one to the same origin keeps it")
  func redirectDropsTokenAcrossOrigins() async throws {
    try await LoopbackSampleAPI.withTwoOrigins { apiConnection, elsewhereConnection in
      try await apiConnection.configure(requireAuth: true)
      try await elsewhereConnection.configure(requireAuth: false)
      let interceptor = AuthInterceptor(
        store: InMemoryTokenStore(try await apiConnection.login()),
        refresher: SampleAPIRefresher(connection: apiConnection)
      )
      let client = apiConnection.authenticatedClient(interceptor)

      try await apiConnection.inject(
        .init(
          path: "/todos/1", status: 307, location: elsewhereConnection.baseURL.absoluteString + "/todos/2")
      )
      let foreign = try await client.send(ProtectedEndpoints.todo(1))
      #expect(foreign.id == 2, "the redirect was followed")
      #expect(try await elsewhereConnection.counters().authorized == 0, "no token left the API's origin")

      try await apiConnection.inject(
        .init(path: "/todos/3", status: 307, location: apiConnection.baseURL.absoluteString + "/todos/4")
      )
      let local = try await client.send(ProtectedEndpoints.todo(3))
      #expect(local.id == 4)
      #expect(try await apiConnection.counters().paths["GET /todos/4"] == 1)
    }
  }

  @Test(
    "a 401 from another origin a redirect led to is that server's answer: no refresh, no retry, the session kept"
  )
  func foreignRejectionKeepsSession() async throws {
    try await LoopbackSampleAPI.withTwoOrigins { apiConnection, elsewhereConnection in
      try await apiConnection.configure(requireAuth: true)
      try await elsewhereConnection.configure(requireAuth: true)
      let tokens = try await apiConnection.login()
      let store = InMemoryTokenStore(tokens)
      let refresher = SampleAPIRefresher(connection: apiConnection)
      let client = apiConnection.authenticatedClient(AuthInterceptor(store: store, refresher: refresher))
      let elsewhere = elsewhereConnection.baseURL.absoluteString + "/todos/2"
      try await apiConnection.inject(.init(path: "/todos/1", count: -1, status: 302, location: elsewhere))

      for _ in 0..<3 {
        let outcome = await client.outcome(ProtectedEndpoints.todo(1))
        guard case .failure(.badStatus(code: 401, _)) = outcome else {
          Issue.record("expected the other origin's 401, got \(outcome)")
          return
        }
      }
      #expect(try await apiConnection.counters().refreshes == 0, "the API's tokens were never in question")
      #expect(try await elsewhereConnection.counters().paths["GET /todos/2"] == 3, "each call asked once")
      #expect(store.tokens == tokens, "the session is kept")

      // A 401 within the API's origin after a redirect is the API's own: a stale token refreshes.
      store.save(AuthTokens(accessToken: "stale", refreshToken: tokens.refreshToken, expiresAt: nil))
      let home = apiConnection.baseURL.absoluteString + "/todos/4"
      try await apiConnection.inject(.init(path: "/todos/3", count: -1, status: 302, location: home))
      let local = try await client.send(ProtectedEndpoints.todo(3))
      #expect(local.id == 4)
      #expect(try await apiConnection.counters().refreshes == 1)
      #expect(try await apiConnection.counters().paths["GET /todos/4"] == 2, "refused, then answered")
    }
  }
}
