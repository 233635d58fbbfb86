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

/// A backend in the shape many single-page-app guides give: the access token in the body, the
/// refresh token in an `HttpOnly` cookie scoped to the refresh path. `POST /auth/refresh` reads
/// that cookie, answers a new access token and rotates the cookie; a refresh cookie used twice,
/// or unknown, gets a 401.
private final class CookieRefreshBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    var tokens = IssuedTokenSets()
    /// The `Cookie` header of every refresh request, as the server got it.
    var refreshCookies: [String] = []
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/auth/login"):
      let fields = request.jsonFields
      guard fields["password"] == "correct-horse-battery-staple" else {
        return .json(401, text: #"{"message":"Invalid credentials"}"#)
      }
      return issue()
    case ("POST", "/auth/refresh"):
      let cookie = request.header("Cookie") ?? ""
      let presented = request.cookie(named: "refresh_token")
      let known = state.withLock { state in
        state.refreshCookies.append(cookie)
        // A refresh token is good once: rotation.
        return presented.map { state.tokens.refresh.remove($0) != nil } ?? false
      }
      guard known else { return .json(401, text: #"{"message":"Invalid refresh token"}"#) }
      return issue()
    case ("GET", "/todos"):
      guard let bearer = request.bearerToken, state.withLock({ $0.tokens.access.contains(bearer) }) else {
        return .json(401, text: #"{"message":"Unauthorized"}"#)
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"message":"Not Found"}"#)
    }
  }

  /// A new access token in the body and a new refresh token in its cookie.
  private func issue() -> InProcessReply {
    let (access, refresh) = state.withLock { $0.tokens.issuePair() }
    return .respond(
      InProcessResponse(
        status: 200,
        headers: [
          "Content-Type": "application/json",
          "Set-Cookie": "refresh_token=\(refresh); Path=/auth/refresh; HttpOnly; Secure; SameSite=Strict",
        ],
        body: Data(#"{"accessToken":"\#(access)"}"#.utf8)))
  }
}

/// The contract of a backend that keeps the refresh token in a cookie: the cookie's
/// `name=value` pair is the session's refresh token, sent back in a `Cookie` header.
private struct CookieRefreshAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var email: String
    var password: String
  }

  private struct Access: Decodable, Sendable {
    var accessToken: String
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Self.issuing(
      Endpoint(
        method: .post, path: ["auth", "login"], body: .json(Credentials(email: username, password: password)))
    )
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Self.issuing(
      Endpoint(method: .post, path: ["auth", "refresh"], headers: ["Cookie": tokens.refreshToken]))
  }

  /// The access token from the body, the refresh token from the cookie the answer sets, if any.
  private static func issuing(_ endpoint: Endpoint<Access>) -> Endpoint<IssuedTokens> {
    endpoint.map { access, response in
      let cookie = response.cookie(named: "refresh_token")
      return IssuedTokens(
        accessToken: access.accessToken, refreshToken: cookie.map { "\($0.name)=\($0.value)" },
        expiry: .unknown)
    }
  }
}

@Suite("A backend that keeps the refresh token in a cookie", .timeLimit(.minutes(1)))
struct CookieRefreshBackendTests {
  private static let todos = Endpoint<[String]>(path: ["todos"], requiresAuthentication: true)

  @Test(
    "a rejected access token is renewed with the refresh cookie, the rotated cookie is the one sent next, and none is logged"
  )
  func refreshCookieIsSentAndRotated() async throws {
    let backend = CookieRefreshBackend()
    let (container, lines) = AppContainer.servingWithLog(backend) {
      $0.authContract = CookieRefreshAuthContract()
    }
    _ = try await container.session.logIn(
      username: "demo@example.com", password: "correct-horse-battery-staple")
    let first = try #require(backend.state.withLock { $0.tokens.refresh.first })

    for _ in 0..<2 {
      // The server forgets every access token: the request is refused, renewed and sent again.
      backend.state.withLock { $0.tokens.access.removeAll() }
      _ = try await container.authenticatedClient.send(Self.todos)
    }

    let state = backend.state.withLock { $0 }
    let second = try #require(state.refreshCookies.last.map { String($0.dropFirst("refresh_token=".count)) })
    #expect(state.refreshCookies == ["refresh_token=\(first)", "refresh_token=\(second)"])
    #expect(second != first, "the second renewal sent the cookie the first one set")
    #expect(
      state.requestLines == [
        "POST /auth/login", "GET /todos", "POST /auth/refresh", "GET /todos", "GET /todos",
        "POST /auth/refresh",
        "GET /todos",
      ])
    let text = lines.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("/auth/refresh"), "\(text)")
    for secret in [first, second] {
      #expect(!text.contains(secret), "\(secret) appeared in: \(text)")
    }
  }

  @Test("a refresh cookie the server no longer knows ends the session at the next rejected request")
  func unknownRefreshCookieEndsTheSession() async throws {
    let backend = CookieRefreshBackend()
    let container = AppContainer.serving(backend) { $0.authContract = CookieRefreshAuthContract() }
    _ = try await container.session.logIn(
      username: "demo@example.com", password: "correct-horse-battery-staple")
    let sessions = StreamRecorder(container.session.sessionUpdates())

    backend.state.withLock { state in
      state.tokens.access.removeAll()
      state.tokens.refresh.removeAll()
    }
    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos)
    }

    #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
    #expect(
      backend.state.withLock { $0.requestLines } == ["POST /auth/login", "GET /todos", "POST /auth/refresh"])
  }
}
