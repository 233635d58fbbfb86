import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend in the shape of Django REST framework's Simple JWT with rotation and a blacklist: a
/// refresh answers a new access token and a new refresh token and revokes the one it was given,
/// and a sign-out revokes the refresh token it is sent. The answer to a refresh it has done can be
/// held until the test lets it go.
private final class RotatingTokenBackend: InProcessHandler {
  struct State {
    /// The method and path of every request, in order.
    var requestLines: [String] = []
    /// The access token each `/api/me/` request presented.
    var presented: [String] = []
    /// The refresh token each blacklist request sent.
    var blacklisted: [String] = []
    var tokens = IssuedTokenSets()
    var refreshesHeld = false
    var held: [CheckedContinuation<Void, Never>] = []
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    let fields = request.jsonFields
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/api/token/"):
      guard fields["username"] == "alice", fields["password"] == "correct horse" else {
        return .json(401, text: #"{"detail":"No active account found with the given credentials"}"#)
      }
      return .json(200, text: issue())
    case ("POST", "/api/token/refresh/"):
      let reply: InProcessReply = state.withLock { state in
        guard let refresh = fields["refresh"], state.tokens.refresh.remove(refresh) != nil else {
          return .json(401, text: #"{"detail":"Token is blacklisted","code":"token_not_valid"}"#)
        }
        return .json(200, text: Self.pair(state.tokens.issuePair()))
      }
      await holdIfAsked()
      return reply
    case ("POST", "/api/token/blacklist/"):
      state.withLock { state in
        state.blacklisted.append(fields["refresh"] ?? "none")
        _ = fields["refresh"].map { state.tokens.refresh.remove($0) }
      }
      return .json(200, text: "{}")
    case ("GET", "/api/me/"):
      let token = request.bearerToken ?? "none"
      let accepted = state.withLock { state in
        state.presented.append(token)
        return state.tokens.access.contains(token)
      }
      guard accepted else {
        return .json(
          401, text: #"{"detail":"Given token not valid for any token type","code":"token_not_valid"}"#)
      }
      return .json(200, text: #"{"username":"alice"}"#)
    default:
      return .json(404, text: #"{"detail":"Not found."}"#)
    }
  }

  /// Ends every access token issued so far, as their five minutes would.
  func expireAccessTokens() {
    state.withLock { $0.tokens.access.removeAll() }
  }

  /// Makes every refresh from now on wait for ``answerRefreshes()`` once it is done.
  func holdRefreshes() {
    state.withLock { $0.refreshesHeld = true }
  }

  /// Lets the held refreshes answer, and those to come answer at once.
  func answerRefreshes() {
    let held = state.withLock { state in
      state.refreshesHeld = false
      defer { state.held = [] }
      return state.held
    }
    for refresh in held { refresh.resume() }
  }

  private func holdIfAsked() async {
    await withCheckedContinuation { continuation in
      let held = state.withLock { state in
        if state.refreshesHeld { state.held.append(continuation) }
        return state.refreshesHeld
      }
      if !held { continuation.resume() }
    }
  }

  private func issue() -> String {
    state.withLock { Self.pair($0.tokens.issuePair()) }
  }

  private static func pair(_ tokens: (access: String, refresh: String)) -> String {
    #"{"access":"\#(tokens.access)","refresh":"\#(tokens.refresh)"}"#
  }
}

/// The contract an app writes for that backend.
private struct RotatingTokenContract: AuthContract {
  private struct Pair: Decodable, Sendable {
    var access: String
    var refresh: String

    var issued: IssuedTokens {
      IssuedTokens(accessToken: access, refreshToken: refresh, expiry: .unknown)
    }
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<Pair>(
      method: .post, path: ["api", "token"], body: .json(["username": username, "password": password])
    ).endingWithSlash().map(\.issued)
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Endpoint<Pair>(
      method: .post, path: ["api", "token", "refresh"], body: .json(["refresh": tokens.refreshToken])
    ).endingWithSlash().map(\.issued)
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(
      method: .post, path: ["api", "token", "blacklist"], body: .json(["refresh": tokens.refreshToken])
    )
    .endingWithSlash()
  }
}

@Suite("A sign-out while a refresh is on its way", .timeLimit(.minutes(1)))
struct SignOutDuringRefreshTests {
  @Test(
    "a sign-out while a rotating refresh is on its way revokes the refresh token that refresh was issued, and no request carries its access token"
  )
  func signOutRevokesTheRotatedToken() async throws {
    let backend = RotatingTokenBackend()
    let container = AppContainer.serving(backend) { $0.authContract = RotatingTokenContract() }
    let me = Endpoint<NoContent>(path: ["api", "me"], requiresAuthentication: true).endingWithSlash()

    _ = try await container.session.logIn(username: "alice", password: "correct horse")
    backend.expireAccessTokens()
    backend.holdRefreshes()
    let request = Task { try await container.authenticatedClient.send(me) }
    while backend.state.withLock({ $0.held.isEmpty }) { try await Task.sleep(for: .milliseconds(5)) }
    let signOut = Task { await container.session.logOut() }
    for await session in container.session.sessionUpdates() where session == .signedOut { break }
    backend.answerRefreshes()
    await signOut.value
    let outcome = await request.result

    let state = backend.state.withLock { $0 }
    #expect(
      state.requestLines == [
        "POST /api/token/", "GET /api/me/", "POST /api/token/refresh/", "POST /api/token/blacklist/",
      ], "the request waiting for the refresh is not sent again once the user has signed out")
    #expect(state.tokens.refresh.isEmpty, "the server keeps no refresh token: \(state.blacklisted)")
    #expect(throws: NetworkError.unauthorized) { try outcome.get() }
  }
}
