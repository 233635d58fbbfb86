import AppComposition
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("A session of short-lived tokens", .timeLimit(.minutes(1)))
struct ShortLivedTokenTests {
  private struct Todo: Decodable, Sendable {
    var id: Int
  }

  /// A store of an app's own, as a keychain wrapper may be written: it keeps the tokens and
  /// their expiry, and not when they arrived.
  private final class KeychainLikeStore: TokenStore {
    private let saved = Locked<AuthTokens?>(nil)

    var tokens: AuthTokens? { saved.withLock { $0 } }

    func save(_ tokens: AuthTokens) {
      saved.withLock {
        $0 = AuthTokens(
          accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: tokens.expiresAt)
      }
    }

    func clear() { saved.withLock { $0 = nil } }
  }

  /// Has the server issue four-second tokens, signs in with the tokens kept in `tokenStore` (the
  /// container's own when `nil`), sends one request after each of `count` pauses long enough for
  /// a token to come due, and returns the failures.
  @MainActor
  private static func requestsAsTokensComeDue(
    on connection: SampleBackendConnection, tokenStore: (any TokenStore)? = nil, count: Int
  ) async throws -> [String] {
    try await connection.configure(tokenLifetime: 4, requireAuth: true)
    var configuration = AppConfiguration(baseURL: connection.baseURL, transport: connection.transport)
    configuration.tokenStore = tokenStore
    let app = AppHarness(connection, configuration: configuration)
    await app.signIn()
    let todo = Endpoint<Todo>(path: ["todos", "1"], requiresAuthentication: true)
    var failures: [String] = []
    for _ in 0..<count {
      try await Task.sleep(for: .milliseconds(2_200))
      do throws(NetworkError) {
        _ = try await app.container.authenticatedClient.send(todo)
      } catch {
        failures.append("\(error)")
      }
    }
    return failures
  }

  /// The refresh limit (three signs of a loop in a minute by default) is for loops: a server that
  /// refuses every token it issues. Four-second tokens come due every two seconds, and each
  /// renewal is their lifetime at work, so the session lasts as long as the app uses it. Each
  /// renewed token lives four seconds at the server, which its request must reach in that time:
  /// under ThreadSanitizer, in the crowded start of the suite, one has taken more than two.
  @Test(
    "tokens that live four seconds are renewed as they come due, more often than the refresh limit, and the session goes on",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func shortLivedTokensOutlastTheRefreshLimit(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let failures = try await Self.requestsAsTokensComeDue(on: connection, count: 4)

      #expect(failures.isEmpty, "\(failures)")
      let counters = try await connection.counters()
      #expect(counters.refreshes >= 4, "each request came after its token was due: \(counters)")
      #expect(counters.logins == 1)
    }
  }

  /// Without the arrival time a short-lived token looked due from the start: renewed before every
  /// request, each renewal counted as a loop. The interceptor knows when the tokens it saved
  /// arrived, and reads them with that.
  @Test(
    "with a token store that keeps no arrival time, tokens that live four seconds are still renewed at half their life, and the session goes on",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func storeWithoutArrivalTime(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let failures = try await Self.requestsAsTokensComeDue(
        on: connection, tokenStore: KeychainLikeStore(), count: 4)

      #expect(failures.isEmpty, "\(failures)")
      let counters = try await connection.counters()
      #expect(counters.paths["GET /todos/1"] == 4, "no request was refused: \(counters)")
      #expect((4...5).contains(counters.refreshes), "one renewal a request, not more: \(counters.refreshes)")
    }
  }
}
