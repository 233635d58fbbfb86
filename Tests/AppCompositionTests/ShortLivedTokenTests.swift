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

  /// The refresh limit (three signs of a loop in a minute by default) is for loops: a server that
  /// refuses every token it issues. Two-second tokens come due every second, and each renewal is
  /// their lifetime at work, so the session lasts as long as the app uses it. Each renewed token
  /// has a second left at the server for its request to arrive, however busy the machine.
  @Test(
    "tokens that live two seconds are renewed as they come due, more often than the refresh limit, and the session goes on",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func shortLivedTokensOutlastTheRefreshLimit(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(tokenLifetime: 2, requireAuth: true)
      let app = AppHarness(connection)
      await app.signIn()
      let todo = Endpoint<Todo>(path: ["todos", "1"], requiresAuthentication: true)

      var failures: [String] = []
      for _ in 0..<4 {
        try await Task.sleep(for: .milliseconds(1_100))
        do throws(NetworkError) {
          _ = try await app.container.authenticatedClient.send(todo)
        } catch {
          failures.append("\(error)")
        }
      }

      #expect(failures.isEmpty, "\(failures)")
      let counters = try await connection.counters()
      #expect(counters.refreshes >= 4, "each request came after its token was due")
      #expect(counters.logins == 1)
    }
  }
}
