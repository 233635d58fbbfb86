import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The JWT backend's login contract, written as an app writes its own: nothing of Layered's
/// wiring is repeated, only what this backend calls things.
struct JWTStyleAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct RefreshToken: Encodable, Sendable {
    var refresh: String
  }

  private struct Pair: Decodable, Sendable {
    var access: String
    var refresh: String?
  }

  /// Whether the expiry is read from the access token's `exp`; without it, it is unknown.
  var readsExpiry = true
  /// The statuses that end the session when the refresh request gets them.
  var rejectedRefreshStatuses = AuthInterceptor.defaultRejectedRefreshStatuses

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "token"],
        body: .json(Credentials(username: username, password: password))))
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "token", "refresh"],
        body: .json(RefreshToken(refresh: tokens.refreshToken))))
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(
      method: .post, path: ["api", "token", "blacklist"],
      body: .json(RefreshToken(refresh: tokens.refreshToken))
    )
    .endingWithSlash()
  }

  /// The backend's `detail`, which it writes for people.
  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  /// `Authorization: JWT …`.
  var tokenScheme: String? { "JWT" }

  private func issuing(_ endpoint: Endpoint<Pair>) -> Endpoint<IssuedTokens> {
    let readsExpiry = readsExpiry
    return endpoint.endingWithSlash().map { pair in
      IssuedTokens(
        accessToken: pair.access, refreshToken: pair.refresh,
        expiry: readsExpiry ? .jwt(pair.access) : .unknown)
    }
  }
}

@Suite("An app's own backend: its login contract, end to end", .timeLimit(.minutes(1)))
struct OwnBackendTests {
  private static let todos = Endpoint<[String]>(path: ["api", "todos"], requiresAuthentication: true)
    .endingWithSlash()

  private static func app(
    _ backend: JWTStyleBackend, contract: JWTStyleAuthContract = JWTStyleAuthContract(),
    leeway: Duration = .seconds(10), interceptors: [any RequestInterceptor] = []
  ) -> (AppContainer, InProcessTransport) {
    let transport = InProcessTransport(backend)
    var configuration = AppConfiguration(baseURL: transport.baseURL, transport: transport)
    configuration.authContract = contract
    configuration.refreshLeeway = leeway
    configuration.interceptors = interceptors
    return (AppContainer(configuration: configuration), transport)
  }

  private static func signIn(_ container: AppContainer) async throws {
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
  }

  private static func currentSession(_ container: AppContainer) async -> Session? {
    var updates = container.session.sessionUpdates().makeAsyncIterator()
    return await updates.next()
  }

  /// The token lives 40 s, less than the 60 s leeway: without the clamp every request renewed it
  /// and the fourth ended the session. Half its life leaves 20 s for four requests on a busy
  /// machine.
  @Test(
    "a token that lives less than the leeway is used for its first half, not renewed before every request")
  func shortLivedTokenIsUsed() async throws {
    let backend = JWTStyleBackend(accessLifetime: 40)
    let (container, _) = Self.app(backend, leeway: .seconds(60))
    try await Self.signIn(container)
    for _ in 0..<4 { _ = try await container.authenticatedClient.send(Self.todos) }
    #expect(backend.count("POST /api/token/refresh/") == 0)
    #expect(backend.count("GET /api/todos/") == 4)
    #expect(await Self.currentSession(container) == .signedIn)
  }

  /// Without `iat` the expiry is the server's moment, already an hour past by the device's clock:
  /// every request renewed the token first, and the fourth in a minute ended the session.
  @Test("a device clock an hour ahead of the server's renews no token early: a JWT lives exp less iat")
  func skewedClockRenewsNothing() async throws {
    let backend = JWTStyleBackend(clockOffset: -3600)
    let (container, _) = Self.app(backend)
    try await Self.signIn(container)
    for _ in 0..<5 { _ = try await container.authenticatedClient.send(Self.todos) }
    #expect(backend.count("POST /api/token/refresh/") == 0)
    #expect(backend.count("GET /api/todos/") == 5)
    #expect(await Self.currentSession(container) == .signedIn)
  }

  @Test(
    "an expired token is renewed before sending, each refresh sends the rotated refresh token, and every URL ends with /"
  )
  func rotatedRefreshTokenIsSent() async throws {
    let backend = JWTStyleBackend(accessLifetime: -10)
    let (container, _) = Self.app(backend)
    try await Self.signIn(container)
    backend.accessLifetime.withLock { $0 = 300 }
    _ = try await container.authenticatedClient.send(Self.todos)
    // The server forgets every access token: the next request is refused and renewed.
    backend.state.withLock { $0.accessTokens.removeAll() }
    _ = try await container.authenticatedClient.send(Self.todos)

    let received = backend.refreshTokensReceived
    #expect(received.count == 2)
    #expect(Set(received).count == 2, "the second refresh sent the rotated token, not the blacklisted one")
    #expect(
      backend.requestLines == [
        "POST /api/token/", "POST /api/token/refresh/", "GET /api/todos/", "GET /api/todos/",
        "POST /api/token/refresh/", "GET /api/todos/",
      ])
    #expect(await Self.currentSession(container) == .signedIn)
  }

  @Test("with an unknown expiry the token is renewed only when the server refuses it")
  func unknownExpiryRenewsOnRejection() async throws {
    let backend = JWTStyleBackend(accessLifetime: -10)
    let (container, _) = Self.app(backend, contract: JWTStyleAuthContract(readsExpiry: false))
    try await Self.signIn(container)
    backend.accessLifetime.withLock { $0 = 300 }
    _ = try await container.authenticatedClient.send(Self.todos)
    #expect(
      backend.requestLines == [
        "POST /api/token/", "GET /api/todos/", "POST /api/token/refresh/", "GET /api/todos/",
      ])
  }

  @Test(
    "a refresh token rejected with the backend's own status ends the session when the contract names that status, and only then",
    arguments: [true, false]
  )
  func ownRefreshRejectionStatus(contractNamesIt: Bool) async throws {
    let backend = JWTStyleBackend(accessLifetime: -10, refreshRejection: 498)
    var contract = JWTStyleAuthContract()
    if contractNamesIt { contract.rejectedRefreshStatuses = [498] }
    let (container, _) = Self.app(backend, contract: contract)
    try await Self.signIn(container)
    // The server forgets every refresh token, as after the password was changed elsewhere.
    backend.state.withLock { $0.validRefreshTokens.removeAll() }
    let sessions = StreamRecorder(container.session.sessionUpdates())

    var failure: NetworkError?
    do {
      _ = try await container.authenticatedClient.send(Self.todos)
    } catch {
      failure = error
    }
    // A second request: with the session ended it has no token to send; with the session kept
    // it tries to renew it again.
    await #expect(throws: NetworkError.self) {
      try await container.authenticatedClient.send(Self.todos)
    }

    #expect(backend.count("GET /api/todos/") == 0)
    if contractNamesIt {
      #expect(
        failure == .refreshFailed(reason: "the server rejected the refresh token (HTTP 498); sign in again"))
      #expect(backend.count("POST /api/token/refresh/") == 1)
      #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
    } else {
      guard case .refreshUnavailable(.badStatus(code: 498, _)) = failure else {
        Issue.record(
          "expected a passing refresh failure with the server's 498, got \(String(describing: failure))")
        return
      }
      #expect(backend.count("POST /api/token/refresh/") == 2)
      #expect(sessions.values == [.signedIn])
    }
  }

  /// Puts the app's API key on every request, and notes whether an authenticated one already
  /// carried its token.
  private struct APIKeyInterceptor: RequestInterceptor {
    let key: String
    let tokenWasOn = Locked<[Bool]>([])

    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      var request = request
      request.setValue(key, forHTTPHeaderField: "apikey")
      if context.requiresAuthentication {
        tokenWasOn.withLock { $0.append(request.value(forHTTPHeaderField: "Authorization") != nil) }
      }
      return request
    }
  }

  @Test(
    "an interceptor of the app's own puts the backend's API key on every request, login, refresh and logout included, after the token"
  )
  func appInterceptorOnEveryRequest() async throws {
    let backend = JWTStyleBackend(accessLifetime: -10, apiKey: "anon-key")
    let keys = APIKeyInterceptor(key: "anon-key")
    let (container, _) = Self.app(backend, interceptors: [keys])
    try await Self.signIn(container)
    backend.accessLifetime.withLock { $0 = 300 }
    _ = try await container.authenticatedClient.send(Self.todos)
    await container.session.logOut()

    #expect(
      backend.requestLines == [
        "POST /api/token/", "POST /api/token/refresh/", "GET /api/todos/", "POST /api/token/blacklist/",
      ])
    #expect(backend.withoutAPIKey == 0)
    #expect(keys.tokenWasOn.withLock { $0 } == [true])

    // Without the interceptor the same backend turns the login away.
    let (bare, _) = Self.app(backend)
    await #expect(throws: DomainError.self) { try await Self.signIn(bare) }
    #expect(backend.withoutAPIKey == 1)
  }

  @Test("logging out blacklists the refresh token at the server and signs out")
  func logoutTellsTheServer() async throws {
    let backend = JWTStyleBackend()
    let (container, _) = Self.app(backend)
    try await Self.signIn(container)
    await container.session.logOut()

    #expect(backend.count("POST /api/token/blacklist/") == 1)
    #expect(backend.refreshTokensReceived.count == 1)
    #expect(backend.state.withLock { $0.blacklisted } == Set(backend.refreshTokensReceived))
    #expect(await Self.currentSession(container) == .signedOut)
    await #expect(throws: NetworkError.unauthorized) {
      try await container.authenticatedClient.send(Self.todos)
    }
    #expect(backend.count("GET /api/todos/") == 0)
  }

  @Test("logging out while the server cannot be reached still signs out and forgets the tokens")
  func logoutOffline() async throws {
    let backend = JWTStyleBackend()
    let (container, transport) = Self.app(backend)
    try await Self.signIn(container)
    transport.disconnect()
    await container.session.logOut()
    transport.reconnect()

    #expect(backend.count("POST /api/token/blacklist/") == 0)
    #expect(await Self.currentSession(container) == .signedOut)
    await #expect(throws: NetworkError.unauthorized) {
      try await container.authenticatedClient.send(Self.todos)
    }
    #expect(backend.count("GET /api/todos/") == 0)
  }

  @Test(
    "a refused login keeps its type and carries the server's sentence to the login screen, which still shows its own"
  )
  @MainActor
  func refusedLoginSentenceReachesTheScreen() async throws {
    let backend = JWTStyleBackend()
    let (container, _) = Self.app(backend)
    await container.expectRefusedLogin(serverMessage: "No active account found with the given credentials")
  }

  @Test("a login the backend refuses is invalid credentials, and the session stays signed out")
  func refusedLogin() async throws {
    let backend = JWTStyleBackend()
    let (container, _) = Self.app(backend)
    await #expect(
      throws: DomainError.invalidCredentials(
        serverMessage: "No active account found with the given credentials")
    ) {
      _ = try await container.session.logIn(username: "demo", password: "wrong")
    }
    #expect(backend.requestLines == ["POST /api/token/"])
    #expect(await Self.currentSession(container) == .signedOut)
  }
}
