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
}
