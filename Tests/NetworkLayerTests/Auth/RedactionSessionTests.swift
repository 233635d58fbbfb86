import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("No secret reaches the logs")
struct RedactionSessionTests {
  private struct Credentials: Encodable, Sendable {
    var username = "demo"
    var password = "correct-horse-battery-staple"
  }

  @Test("a scripted login, 401, refresh and retry leaves no password or token in the monitor's output")
  func scriptedSession() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let lines = Locked<[String]>([])
      let monitor = ConsoleEventMonitor(verbose: true, prefix: "[net] ") { line in
        lines.withLock { $0.append(line) }
      }
      let plainClient = URLSessionHTTPClient(
        baseURL: connection.baseURL,
        transport: connection.transport,
        monitors: [monitor]
      )

      try await connection.configure(tokenLifetime: 0, requireAuth: true)
      let login = try await plainClient.send(
        Endpoint<TokenPair>(method: .post, path: ["auth", "login"], body: .json(Credentials()))
      )
      try await connection.configure(tokenLifetime: 3600)
      let store = InMemoryTokenStore(login.tokens)
      let interceptor = AuthInterceptor(
        store: store,
        refresher: SampleAPIRefresher(connection: connection, monitors: [monitor]),
        monitors: [monitor]
      )
      let client = URLSessionHTTPClient(
        baseURL: connection.baseURL,
        transport: connection.transport,
        interceptors: [interceptor],
        monitors: [monitor]
      )
      let todo = try await client.send(ProtectedEndpoints.todo(1))
      #expect(todo.id == 1)
      let refreshed = try #require(store.tokens)
      #expect(refreshed.accessToken != login.accessToken)

      let output = lines.withLock { $0.joined(separator: "\n") }
      let secrets = [
        Credentials().password, login.accessToken, login.refreshToken, refreshed.accessToken,
        refreshed.refreshToken,
      ]
      for secret in secrets {
        #expect(!output.contains(secret), "a secret leaked into the log")
      }
      #expect(output.contains("POST"))
      #expect(output.contains("/auth/refresh"))
      #expect(output.contains("401"))
      #expect(output.contains(Redactor.placeholder))
    }
  }
}
