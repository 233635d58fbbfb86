import AppComposition
import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("A session of short-lived tokens", .timeLimit(.minutes(1)))
struct ShortLivedTokenTests {
  private struct Todo: Decodable, Sendable {
    var id: Int
  }

  /// The refresh limit (three in a minute by default) is for loops: a server that refuses every
  /// token it issues. One-second tokens come due every half second, and each renewal is their
  /// lifetime at work, so the session lasts as long as the app uses it.
  @Test(
    "tokens that live a second are renewed as they come due, more often than the refresh limit, and the session goes on",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func shortLivedTokensOutlastTheRefreshLimit(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(tokenLifetime: 1, requireAuth: true)
      let app = AppHarness(connection)
      await app.signIn()
      let todo = Endpoint<Todo>(path: ["todos", "1"], requiresAuthentication: true)

      var failures: [String] = []
      for _ in 0..<5 {
        try await Task.sleep(for: .milliseconds(600))
        do throws(NetworkError) {
          _ = try await app.container.authenticatedClient.send(todo)
        } catch {
          failures.append("\(error)")
        }
      }

      #expect(failures.isEmpty, "\(failures)")
      let counters = try await connection.counters()
      #expect(counters.refreshes >= 5, "each request came after its token was due")
      #expect(counters.logins == 1)
    }
  }
}
