import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The refresh call of the sample API, sent through a client without the auth interceptor.
struct SampleAPIRefresher: TokenRefresher {
  let client: URLSessionHTTPClient

  init(connection: SampleBackendConnection, monitors: [any NetworkEventMonitor] = []) {
    client = URLSessionHTTPClient(
      baseURL: connection.baseURL, transport: connection.transport, monitors: monitors)
  }

  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    let pair = try await client.send(
      Endpoint<TokenPair>(
        method: .post,
        path: ["auth", "refresh"],
        body: .json(["refreshToken": tokens.refreshToken])
      )
    )
    return pair.tokens
  }
}

/// A refresher whose server answers every refresh with `status` (a rejected refresh token,
/// unless told otherwise), for tests where a refresh must fail or never happens.
struct FailingRefresher: TokenRefresher {
  var status = 401

  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    throw .badStatus(code: status, bodyExcerpt: nil)
  }
}

/// A refresher that always hands out `fresh`, counting its calls.
struct StaticRefresher: TokenRefresher {
  let fresh: AuthTokens
  let calls = Locked(0)
  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    calls.withLock { $0 += 1 }
    return fresh
  }
}

/// A session whose stored token, `at-old`, the server no longer takes: a client over
/// `transport` whose auth interceptor renews it to `at-new` through a refresher that counts its
/// calls, and the client's verbose console log.
struct StaleSession {
  let refresher = StaticRefresher(
    fresh: AuthTokens(accessToken: "at-new", refreshToken: "rt-new", expiresAt: nil))
  let lines = Locked<[String]>([])

  /// A client whose one interceptor is `interceptor(store, refresher)` over the stale tokens.
  func client(
    on transport: InProcessTransport,
    _ interceptor: (InMemoryTokenStore, StaticRefresher) -> AuthInterceptor
  ) -> URLSessionHTTPClient {
    let stale = AuthTokens(accessToken: "at-old", refreshToken: "rt-old", expiresAt: nil)
    let lines = self.lines
    let monitor = ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }
    return URLSessionHTTPClient(
      baseURL: transport.baseURL, transport: transport,
      interceptors: [interceptor(InMemoryTokenStore(stale), refresher)], monitors: [monitor])
  }

  /// The console log so far, one text.
  var log: String { lines.withLock { $0.joined(separator: "\n") } }
}

struct TokenPair: Decodable, Sendable {
  var accessToken: String
  var refreshToken: String
  var expiresIn: Int

  var tokens: AuthTokens {
    AuthTokens(accessToken: accessToken, refreshToken: refreshToken, expiresAt: nil)
  }
}

extension SampleBackendConnection {
  /// Logs in as the demo user and returns the tokens; `expiresAt` is left unknown, as if the
  /// client had not been told, so only the server knows when they expire.
  func login() async throws -> AuthTokens {
    let credentials = #"{"username":"demo","password":"correct-horse-battery-staple"}"#
    let response = try await raw("POST", "/auth/login", body: Data(credentials.utf8))
    guard response.status == 200 else { throw ControlError(description: "login answered \(response.status)") }
    return try JSONDecoder().decode(TokenPair.self, from: response.body).tokens
  }

  /// A client whose chain holds `interceptor`, talking to this backend.
  func authenticatedClient(_ interceptor: AuthInterceptor) -> URLSessionHTTPClient {
    URLSessionHTTPClient(baseURL: baseURL, transport: transport, interceptors: [interceptor])
  }
}

enum ProtectedEndpoints {
  static let todos = Endpoint<[TestTodo]>(path: ["todos"], requiresAuthentication: true)
  static func todo(_ id: Int) -> Endpoint<TestTodo> {
    Endpoint<TestTodo>(path: ["todos", String(id)], requiresAuthentication: true)
  }
}

/// Runs `body` for every index concurrently and returns the results in index order.
func concurrently<Value: Sendable>(
  _ count: Int,
  _ body: @escaping @Sendable (Int) async -> Value
) async -> [Value] {
  await withTaskGroup(of: (Int, Value).self) { group in
    for index in 0..<count {
      group.addTask { (index, await body(index)) }
    }
    var results: [(Int, Value)] = []
    for await result in group { results.append(result) }
    return results.sorted { $0.0 < $1.0 }.map(\.1)
  }
}
