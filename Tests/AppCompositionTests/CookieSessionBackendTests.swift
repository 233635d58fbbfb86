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

/// A backend that keeps a server-side session behind a cookie, as a Rails or Django app does:
/// `POST /session` sets the `_app_session` cookie (and another), every request presents it, a
/// session the server no longer knows gets a 401, and `DELETE /session` ends it.
private final class CookieSessionBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    var sessions: Set<String> = []
    /// The `Cookie` header of every request that had one, as the server got it.
    var cookies: [String] = []
  }

  let state = Locked(State())
  /// The session cookie's `expires` attribute, as the server writes it.
  let cookieExpiry: String

  init(cookieExpiry: String = "Fri, 01 Jan 2100 00:00:00 GMT") {
    self.cookieExpiry = cookieExpiry
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let cookie = request.header("Cookie")
    let session = request.cookie(named: "_app_session")
    state.withLock { state in
      state.requestLines.append("\(request.method) \(request.percentEncodedPath)")
      if let cookie { state.cookies.append(cookie) }
    }
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/session"):
      let fields = request.jsonFields
      guard fields["password"] == "correct-horse-battery-staple" else {
        return .json(401, text: #"{"error":"Invalid email or password."}"#)
      }
      let id = UUID().uuidString.lowercased()
      state.withLock { _ = $0.sessions.insert(id) }
      return .respond(
        InProcessResponse(
          status: 200,
          headers: [
            "Content-Type": "application/json",
            // Two cookies in one field, as URLSession hands several `Set-Cookie` lines over; a
            // comma inside the first one's date.
            "Set-Cookie":
              "_app_session=\(id); path=/; expires=\(cookieExpiry); HttpOnly; SameSite=Lax, locale=en; path=/",
          ],
          body: Data(#"{"id":1}"#.utf8)))
    case ("DELETE", "/session"):
      state.withLock { state in _ = session.map { state.sessions.remove($0) } }
      return .respond(InProcessResponse(status: 204, headers: [:], body: Data()))
    case ("GET", "/todos"):
      guard let session, state.withLock({ $0.sessions.contains(session) }) else {
        return .json(401, text: #"{"error":"You need to sign in before continuing."}"#)
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"error":"Not Found"}"#)
    }
  }
}

/// The contract of a cookie session: the session cookie is the access token, presented bare in
/// the `Cookie` header, and there is nothing to renew it with.
private struct CookieSessionAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var email: String
    var password: String
  }

  private struct SignedInUser: Decodable, Sendable {
    var id: Int
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<SignedInUser>(
      method: .post, path: ["session"], body: .json(Credentials(email: username, password: password))
    )
    .map { _, response throws(NetworkError) -> IssuedTokens in
      guard let session = response.cookie(named: "_app_session") else {
        throw .decodingFailed(path: "Set-Cookie", reason: "the sign-in answer sets no session cookie")
      }
      return IssuedTokens(
        accessToken: "\(session.name)=\(session.value)", refreshToken: nil,
        expiry: session.expiry)
    }
  }

  /// Never sent: a cookie session is not renewed.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    logIn(username: "", password: "")
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(method: .delete, path: ["session"], headers: ["Cookie": tokens.accessToken])
  }

  /// `Cookie: _app_session=…`, no scheme.
  var tokenHeader: String { "Cookie" }
  var tokenScheme: String? { nil }
}

@Suite("A backend that keeps its session behind a cookie", .timeLimit(.minutes(1)))
struct CookieSessionBackendTests {
  private static let todos = Endpoint<[String]>(path: ["todos"], requiresAuthentication: true)

  @Test(
    "the session cookie a sign-in sets is presented on every request after it, expires with it, ends at sign-out, and is never logged"
  )
  func sessionCookieSignsRequests() async throws {
    let backend = CookieSessionBackend()
    let (expiresAt, text) = try await AppContainer.wholeSession(
      on: backend, contract: CookieSessionAuthContract(), sending: Self.todos)

    let state = backend.state.withLock { $0 }
    let cookie = try #require(state.cookies.first)
    #expect(
      cookie.hasPrefix("_app_session=") && !cookie.contains(";") && !cookie.contains("locale"),
      "only the session's pair is sent: \(cookie)")
    #expect(expiresAt == Date(timeIntervalSince1970: 4_102_444_800), "the cookie's expiry is the session's")
    #expect(state.cookies == [cookie, cookie], "the request and the sign-out carried it")
    #expect(state.sessions.isEmpty, "the sign-out ended it")
    #expect(state.requestLines == ["POST /session", "GET /todos", "DELETE /session"])
    #expect(text.contains("/session") && text.contains("/todos"), "\(text)")
    let id = String(cookie.dropFirst("_app_session=".count))
    for secret in [id, "correct-horse-battery-staple"] {
      #expect(!text.contains(secret), "\(secret) appeared in: \(text)")
    }
  }

  @Test("a session the server dropped ends at the next request, with no renewal sent")
  func droppedSessionEndsTheSession() async throws {
    let backend = CookieSessionBackend()
    let container = AppContainer.serving(backend) { $0.authContract = CookieSessionAuthContract() }
    _ = try await container.session.logIn(
      username: "demo@example.com", password: "correct-horse-battery-staple")

    backend.state.withLock { $0.sessions.removeAll() }
    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos)
    }

    #expect(backend.state.withLock { $0.requestLines } == ["POST /session", "GET /todos"])
  }

  @Test(
    "a session cookie whose expiry ends in an accent is no cookie: the sign-in fails as invalid data, and nothing traps"
  )
  func accentedCookieExpiry() async throws {
    // On Linux, `HTTPCookie` traps on this date; the contract's reader refuses it first.
    let backend = CookieSessionBackend(cookieExpiry: "Fri, 01 Jan 2100 00:00:00 GMT\u{301}")
    let container = AppContainer.serving(backend) { $0.authContract = CookieSessionAuthContract() }

    let error = await #expect(throws: DomainError.self) {
      try await container.session.logIn(
        username: "demo@example.com", password: "correct-horse-battery-staple")
    }

    guard case .invalidData = error else {
      Issue.record("expected invalid data, got \(String(describing: error))")
      return
    }
    #expect(backend.state.withLock { $0.requestLines } == ["POST /session"])
  }

  @Test("a refused sign-in is invalid credentials, and nothing the user typed is lost")
  @MainActor
  func refusedSignIn() async {
    let backend = CookieSessionBackend()
    await AppContainer.serving(backend) { $0.authContract = CookieSessionAuthContract() }
      .expectRefusedLogin(serverMessage: nil)
    #expect(backend.state.withLock { $0.requestLines } == ["POST /session"])
  }
}
