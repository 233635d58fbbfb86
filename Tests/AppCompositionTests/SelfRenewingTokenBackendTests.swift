import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend in the shape of Laravel's jwt-auth: it issues one token and no refresh token. A
/// login answers `{"access_token", "token_type", "expires_in"}`; `POST /api/auth/refresh` takes
/// the current token in `Authorization`, expired or not, answers a new one and blacklists the
/// one it was given; a token past its refresh window, or blacklisted, gets a 401 there; and
/// `POST /api/auth/logout`, behind the same guard as every other route, blacklists a live token
/// and refuses an expired one with a 401.
private final class SelfRenewingTokenBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    /// Tokens that authenticate a request: issued, not expired, not blacklisted.
    var live: Set<String> = []
    /// Tokens the refresh request still exchanges: issued, not blacklisted, within the window.
    var renewable: Set<String> = []
    /// The `Authorization` header of every refresh and logout request, as the server got it.
    var refreshHeaders: [String] = []
    var logoutHeaders: [String] = []
    /// The `Authorization` header of every request refused for its token.
    var refusedHeaders: [String] = []
    var issuedCount = 0

    mutating func issue() -> String {
      issuedCount += 1
      let token = "jwt-\(issuedCount)-\(UUID().uuidString)"
      live.insert(token)
      renewable.insert(token)
      return token
    }

    /// Every token issued so far has expired; each may still be exchanged.
    mutating func expireAll() {
      live.removeAll()
    }
  }

  let state = Locked(State())
  /// Requests refused with an expired token wait here until this many have arrived, so that
  /// every one of them was sent with the same token.
  let expiredArrivals: ArrivalGate?
  /// Whether the refresh request is held unanswered for two minutes, as a server that hangs.
  let refreshHangs: Bool

  init(holdingExpiredUntil count: Int? = nil, refreshHangs: Bool = false) {
    expiredArrivals = count.map(ArrivalGate.init)
    self.refreshHangs = refreshHangs
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    let presented = request.header("Authorization") ?? ""
    let bearer = request.bearerToken ?? ""
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/api/auth/login"):
      let fields = request.jsonFields
      guard fields["password"] == "correct-horse-battery-staple" else {
        return .json(401, text: #"{"error":"Unauthorized"}"#)
      }
      return Self.grant(state.withLock { $0.issue() })
    case ("POST", "/api/auth/refresh"):
      if refreshHangs { try? await Task.sleep(for: .seconds(120)) }
      let token: String? = state.withLock { state in
        state.refreshHeaders.append(presented)
        guard state.renewable.remove(bearer) != nil else { return nil }
        state.live.remove(bearer)
        return state.issue()
      }
      guard let token else {
        return .json(401, text: #"{"message":"Token has expired and can no longer be refreshed"}"#)
      }
      return Self.grant(token)
    case ("POST", "/api/auth/logout"):
      let isLive = state.withLock { state in
        state.logoutHeaders.append(presented)
        guard state.live.remove(bearer) != nil else { return false }
        state.renewable.remove(bearer)
        return true
      }
      guard isLive else { return .json(401, text: #"{"message":"Token has expired"}"#) }
      return .json(200, text: #"{"message":"Successfully logged out"}"#)
    case ("GET", "/api/todos"):
      let isLive = state.withLock { state in
        if !state.live.contains(bearer) { state.refusedHeaders.append(presented) }
        return state.live.contains(bearer)
      }
      guard isLive else {
        await expiredArrivals?.arrive()
        return .json(401, text: #"{"message":"Token has expired"}"#)
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"message":"Not Found"}"#)
    }
  }

  private static func grant(_ token: String) -> InProcessReply {
    .json(200, text: #"{"access_token":"\#(token)","token_type":"bearer","expires_in":3600}"#)
  }
}

/// Holds everyone who arrives until `count` have, then lets them all go.
private actor ArrivalGate {
  private let count: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private var arrived = 0

  init(_ count: Int) {
    self.count = count
  }

  func arrive() async {
    arrived += 1
    guard arrived < count else {
      for waiter in waiting { waiter.resume() }
      waiting.removeAll()
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }
}

/// The contract of a backend that renews a session with its access token: the token is also the
/// session's refresh token, which is what makes the session one that can be renewed.
private struct SelfRenewingAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var email: String
    var password: String
  }

  private struct Grant: Decodable, Sendable {
    var accessToken: String
    var expiresIn: Double

    enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case expiresIn = "expires_in"
    }
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "auth", "login"],
        body: .json(Credentials(email: username, password: password))))
  }

  /// The current token, expired or not, is what this backend exchanges.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["api", "auth", "refresh"],
        headers: ["Authorization": "Bearer \(tokens.accessToken)"]))
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint<NoContent>(
      method: .post, path: ["api", "auth", "logout"],
      headers: ["Authorization": "Bearer \(tokens.accessToken)"]
    )
  }

  private func issuing(_ endpoint: Endpoint<Grant>) -> Endpoint<IssuedTokens> {
    endpoint.map {
      IssuedTokens(
        accessToken: $0.accessToken, refreshToken: $0.accessToken, expiry: .after(seconds: $0.expiresIn))
    }
  }
}

@Suite("A backend that renews a session with its access token", .timeLimit(.minutes(1)))
struct SelfRenewingTokenBackendTests {
  private static let todos = Endpoint<[String]>(path: ["api", "todos"], requiresAuthentication: true)

  /// A container on `backend`, signed in, the lines of its verbose log, and the token the login
  /// was issued.
  private static func signedIn(
    _ backend: SelfRenewingTokenBackend
  ) async throws -> (container: AppContainer, log: Locked<[String]>, token: String) {
    let (container, log) = AppContainer.servingWithLog(backend) {
      $0.authContract = SelfRenewingAuthContract()
    }
    _ = try await container.session.logIn(
      username: "demo@example.com", password: "correct-horse-battery-staple")
    let token = try #require(backend.state.withLock { $0.live.first })
    return (container, log, token)
  }

  @Test(
    "an expired token is exchanged for a new one by presenting itself, the next renewal presents the new one, and no token is logged"
  )
  func expiredTokenRenewsWithItself() async throws {
    let backend = SelfRenewingTokenBackend()
    let (container, lines, first) = try await Self.signedIn(backend)

    backend.state.withLock { $0.expireAll() }
    _ = try await container.authenticatedClient.send(Self.todos)
    let second = try #require(backend.state.withLock { $0.live.first })
    backend.state.withLock { $0.expireAll() }
    _ = try await container.authenticatedClient.send(Self.todos)
    let third = try #require(backend.state.withLock { $0.live.first })

    let state = backend.state.withLock { $0 }
    #expect(
      state.requestLines == [
        "POST /api/auth/login",
        "GET /api/todos", "POST /api/auth/refresh", "GET /api/todos",
        "GET /api/todos", "POST /api/auth/refresh", "GET /api/todos",
      ])
    #expect(
      state.refreshHeaders == ["Bearer \(first)", "Bearer \(second)"],
      "each renewal presents the latest token")
    #expect(state.renewable == [third], "each token given to the refresh request was blacklisted there")
    let log = lines.withLock { $0.joined(separator: "\n") }
    #expect(log.contains("/api/auth/refresh"), "\(log)")
    for token in [first, second, third] {
      #expect(!log.contains(token), "a token reached the log: \(log)")
    }
  }

  @Test(
    "requests refused together with one expired token share one renewal, so none presents a blacklisted token"
  )
  func concurrentRefusalsShareOneRenewal() async throws {
    let backend = SelfRenewingTokenBackend(holdingExpiredUntil: 5)
    let (container, _, first) = try await Self.signedIn(backend)
    let sessions = StreamRecorder(container.session.sessionUpdates())
    backend.state.withLock { $0.expireAll() }

    let client = container.authenticatedClient
    try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<5 {
        group.addTask { try await client.send(Self.todos) }
      }
      try await group.waitForAll()
    }

    // The session is still there: one more request is signed with the renewed token.
    _ = try await client.send(Self.todos)

    let state = backend.state.withLock { $0 }
    #expect(
      state.refusedHeaders == Array(repeating: "Bearer \(first)", count: 5), "all five went out together")
    #expect(state.refreshHeaders == ["Bearer \(first)"], "\(state.requestLines)")
    #expect(
      state.requestLines.filter { $0 == "GET /api/todos" }.count == 11,
      "five refused, five sent again, one more")
    #expect(!sessions.values.contains(.expired), "the session was never ended")
  }

  @Test("a token past its refresh window ends the session, and the next request is not sent")
  func tokenPastItsWindowEndsTheSession() async throws {
    let backend = SelfRenewingTokenBackend()
    let (container, _, _) = try await Self.signedIn(backend)
    let sessions = StreamRecorder(container.session.sessionUpdates())
    backend.state.withLock { state in
      state.expireAll()
      state.renewable.removeAll()
    }

    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos)
    }
    await #expect(throws: NetworkError.unauthorized) {
      try await container.authenticatedClient.send(Self.todos)
    }

    #expect(
      backend.state.withLock { $0.requestLines } == [
        "POST /api/auth/login", "GET /api/todos", "POST /api/auth/refresh",
      ])
    #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
  }

  @Test("signing out presents the current token to the logout request, which blacklists it at the server")
  func signingOutBlacklistsTheToken() async throws {
    let backend = SelfRenewingTokenBackend()
    let (container, lines, token) = try await Self.signedIn(backend)

    await container.session.logOut()
    let state = backend.state.withLock { $0 }

    #expect(state.logoutHeaders == ["Bearer \(token)"])
    #expect(state.live.isEmpty && state.renewable.isEmpty)
    #expect(!lines.withLock { $0.joined(separator: "\n") }.contains(token))
  }

  /// The logout's own bound (10 s) holds for the renewal it may need: without one, the refresh
  /// waited for the client's default of a minute.
  @Test(
    "signing out against a server whose refresh never answers is signed out at once and done within its bound"
  )
  func signingOutPastAHangingRefresh() async throws {
    let backend = SelfRenewingTokenBackend(refreshHangs: true)
    let (container, _, _) = try await Self.signedIn(backend)
    let sessions = StreamRecorder(container.session.sessionUpdates())
    backend.state.withLock { $0.expireAll() }

    let started = ContinuousClock.now
    await container.session.logOut()
    let took = ContinuousClock.now - started

    #expect(await sessions.waitUntil { $0.last == .signedOut }.last == .signedOut)
    #expect(took < .seconds(40), "signing out took \(took)")
    #expect(
      backend.state.withLock { $0.requestLines } == [
        "POST /api/auth/login", "POST /api/auth/logout", "POST /api/auth/refresh",
      ])
  }

  /// Refused, the expired token would stay renewable at the server for its whole refresh window:
  /// whoever held it could take the session back after the user signed out.
  @Test(
    "signing out after the token expired renews it once and signs out with the new one, so the server keeps no token it would exchange"
  )
  func signingOutWithAnExpiredTokenRenewsItFirst() async throws {
    let backend = SelfRenewingTokenBackend()
    let (container, lines, first) = try await Self.signedIn(backend)
    let sessions = StreamRecorder(container.session.sessionUpdates())
    backend.state.withLock { $0.expireAll() }

    await container.session.logOut()
    let state = backend.state.withLock { $0 }

    #expect(
      state.requestLines == [
        "POST /api/auth/login", "POST /api/auth/logout", "POST /api/auth/refresh", "POST /api/auth/logout",
      ])
    #expect(state.refreshHeaders == ["Bearer \(first)"])
    #expect(state.logoutHeaders.count == 2 && state.logoutHeaders.first == "Bearer \(first)")
    #expect(state.live.isEmpty && state.renewable.isEmpty, "no token is left that the server would exchange")
    let log = lines.withLock { $0.joined(separator: "\n") }
    for presented in state.logoutHeaders {
      #expect(!log.contains(presented.dropFirst("Bearer ".count)), "a token reached the log: \(log)")
    }
    let published = await sessions.waitUntil { $0.last == .signedOut }
    #expect(published.last == .signedOut)
    #expect(!published.contains(.expired), "signing out is no session that expired")
  }
}
