import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer

/// The data layer's live stack against one sample backend, the way `AppContainer` wires it:
/// the API client's chain is `[AuthInterceptor, RetryPolicy]` and the login client's is
/// `[RetryPolicy]`, so a test that a request is (or is not) retried proves it for the app.
struct DataStack {
  let tokenStore = InMemoryTokenStore()
  let cache = InMemoryTodoCache()
  let authInterceptor: AuthInterceptor
  /// The authenticated API client, for a feature's repository built in a test.
  let api: any HTTPClient
  let sessions: RemoteSessionRepository
  let todos: RemoteTodoRepository
  let articles: RemoteArticleRepository
  private let baseURL: URL

  init(_ connection: SampleBackendConnection) {
    baseURL = connection.baseURL
    let plain = URLSessionHTTPClient(
      baseURL: connection.baseURL, transport: connection.transport, interceptors: [RetryPolicy()])
    authInterceptor = AuthInterceptor(store: tokenStore, refresher: RemoteTokenRefresher(client: plain))
    let api = URLSessionHTTPClient(
      baseURL: connection.baseURL,
      transport: connection.transport,
      interceptors: [authInterceptor, RetryPolicy()]
    )
    self.api = api
    let (cache, authInterceptor) = (self.cache, self.authInterceptor)
    sessions = RemoteSessionRepository(
      client: plain,
      tokenStore: tokenStore,
      sessionEvents: authInterceptor.sessionEvents,
      forgetUserData: { cache.clear() },
      renewal: { await authInterceptor.renewal(of: $0) }
    )
    todos = RemoteTodoRepository(client: api, cache: cache)
    articles = RemoteArticleRepository(client: api)
  }

  /// An authenticated client with the API client's chain, sending through `transport`.
  func client(over transport: any HTTPTransport) -> URLSessionHTTPClient {
    URLSessionHTTPClient(
      baseURL: baseURL, transport: transport, interceptors: [authInterceptor, RetryPolicy()])
  }

  /// Signs in as the sample API's demo user.
  func signIn() async throws {
    _ = try await sessions.logIn(username: "demo", password: "correct-horse-battery-staple")
  }
}

extension Result where Failure == DomainError {
  /// The outcome of `body`, as a value.
  static func of(_ body: () async throws(DomainError) -> Success) async -> Self {
    do throws(DomainError) {
      return .success(try await body())
    } catch {
      return .failure(error)
    }
  }
}
