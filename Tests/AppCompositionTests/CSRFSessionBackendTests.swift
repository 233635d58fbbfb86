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

/// A backend in the shape of Django's session authentication behind Django REST framework, as
/// its real server answers: a sign-in sets `csrftoken` and `sessionid` (each with `Max-Age` beside
/// `Expires`); every request presents both cookies; an unsafe one must also send the CSRF token in
/// `X-CSRFToken`; a request without a session the server knows gets a 403 saying no credentials
/// were provided, and one without the CSRF token a 403 saying so.
private final class CSRFSessionBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    /// Each session the server knows, with its CSRF token.
    var sessions: [String: String] = [:]
    /// The `X-CSRFToken` header of every request, or "none", in order.
    var csrfHeaders: [String] = []
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let line = "\(request.method) \(request.percentEncodedPath)"
    let session = request.cookie(named: "sessionid")
    let (csrf, known) = state.withLock { state in
      state.requestLines.append(line)
      state.csrfHeaders.append(request.header("X-CSRFToken") ?? "none")
      return (session.flatMap { state.sessions[$0] }, session.map { state.sessions[$0] != nil } ?? false)
    }
    if line == "POST /api/auth/login/" { return signIn(request) }
    guard known else {
      return .json(403, text: #"{"detail":"Authentication credentials were not provided."}"#)
    }
    if request.method != "GET" {
      guard let csrf, request.header("X-CSRFToken") == csrf, request.cookie(named: "csrftoken") == csrf else {
        return .json(403, text: #"{"detail":"CSRF Failed: CSRF token missing."}"#)
      }
    }
    switch line {
    case "GET /api/todos/": return .json(200, text: "[]")
    case "POST /api/todos/": return .json(201, text: #"{"id":1,"title":"Milk"}"#)
    case "POST /api/auth/logout/":
      state.withLock { state in _ = session.map { state.sessions.removeValue(forKey: $0) } }
      return .respond(InProcessResponse(status: 204))
    default: return .json(404, text: #"{"detail":"Not found."}"#)
    }
  }

  private func signIn(_ request: InProcessRequest) -> InProcessReply {
    let fields = request.jsonFields
    guard fields["password"] == "correct-horse-battery-staple" else {
      return .json(400, text: #"{"non_field_errors":["Unable to log in with provided credentials."]}"#)
    }
    let (session, csrf) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
    state.withLock { $0.sessions[session] = csrf }
    // Two `Set-Cookie` lines in one field, as URLSession hands them over. The session's `Expires`
    // disagrees with its `Max-Age` (Django's agree), so a test tells which one was read.
    let cookies =
      "csrftoken=\(csrf); expires=Sat, 27 Nov 2027 12:27:34 GMT; Max-Age=31449600; Path=/; SameSite=Lax, "
      + "sessionid=\(session); expires=Fri, 01 Jan 2100 00:00:00 GMT; HttpOnly; Max-Age=1209600; Path=/"
    return .respond(
      InProcessResponse(
        status: 200, headers: ["Content-Type": "application/json", "Set-Cookie": cookies],
        body: Data(#"{"username":"demo"}"#.utf8)))
  }
}

/// The contract an app writes for that backend: both cookies are the access token, presented bare
/// in the `Cookie` header; the session lasts its cookie's `Max-Age`; nothing renews it.
private struct DjangoSessionAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct SignedIn: Decodable, Sendable {
    var username: String
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<SignedIn>(
      method: .post, path: ["api", "auth", "login"],
      body: .json(Credentials(username: username, password: password))
    )
    .endingWithSlash()
    .map { _, response throws(NetworkError) -> IssuedTokens in
      guard let session = response.cookie(named: "sessionid"), let csrf = response.cookie(named: "csrftoken")
      else { throw .decodingFailed(path: "Set-Cookie", reason: "the sign-in answer sets no session cookie") }
      return IssuedTokens(
        accessToken: "sessionid=\(session.value); csrftoken=\(csrf.value)", refreshToken: nil,
        expiry: session.expiry)
    }
  }

  /// Never sent: a session is not renewed.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    logIn(username: "", password: "")
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(
      method: .post, path: ["api", "auth", "logout"],
      headers: [
        "Cookie": tokens.accessToken,
        "X-CSRFToken": cookieValue(named: "csrftoken", in: tokens.accessToken) ?? "",
      ]
    )
    .endingWithSlash()
  }

  var refusedLoginStatuses: Set<Int> { [400] }

  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  /// A 403 that says no credentials were provided; a refused CSRF check is a 403 too, and is not.
  func rejectsAccessToken(_ failure: NetworkError) -> Bool {
    failure.status == 403 && failure.serverSentence == "Authentication credentials were not provided."
  }

  var tokenHeader: String { "Cookie" }
  var tokenScheme: String? { nil }
}

/// The app's own interceptor: it runs after the auth interceptor, so the session's cookies are on
/// the request, and copies the CSRF token into `X-CSRFToken` on every request that is not safe.
private struct CSRFHeader: RequestInterceptor {
  func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
    guard ![.get, .head, .options].contains(context.method),
      let token = request.value(forHTTPHeaderField: "Cookie").flatMap({
        cookieValue(named: "csrftoken", in: $0)
      })
    else { return request }
    var request = request
    request.setValue(token, forHTTPHeaderField: "X-CSRFToken")
    return request
  }
}

/// A todo as that backend sends and takes it.
private struct TodoDTO: Codable, Sendable {
  var id: Int?
  var title: String
}

@Suite(
  "A backend that keeps its session behind a cookie and checks a CSRF token (Django's session authentication)",
  .timeLimit(.minutes(1)))
struct CSRFSessionBackendTests {
  private static let todos = CollectionEndpoints<TodoDTO>(
    path: ["api", "todos"], endsWithSlash: true)

  /// A container on `backend` keeping its tokens in `store`, with the app's CSRF interceptor
  /// unless `withoutCSRF`, and the lines of its verbose log.
  private static func app(
    _ backend: CSRFSessionBackend, store: some TokenStore = InMemoryTokenStore(), withoutCSRF: Bool = false
  ) -> (container: AppContainer, log: Locked<[String]>) {
    AppContainer.servingWithLog(backend) {
      $0.authContract = DjangoSessionAuthContract()
      $0.tokenStore = store
      $0.interceptors = withoutCSRF ? [] : [CSRFHeader()]
    }
  }

  @Test(
    "both cookies sign every request, an unsafe one also carries the CSRF token, the session lasts the cookie's Max-Age, and no cookie is logged"
  )
  func csrfTokenOnUnsafeRequests() async throws {
    let backend = CSRFSessionBackend()
    let store = InMemoryTokenStore()
    let (container, log) = Self.app(backend, store: store)
    let signedIn = Date()
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")

    _ = try await container.authenticatedClient.send(Self.todos.list)
    _ = try await container.authenticatedClient.send(Self.todos.create(TodoDTO(title: "Milk")))
    let expiresAt = try #require(store.tokens?.expiresAt)
    await container.session.logOut()

    let state = backend.state.withLock { $0 }
    let csrf = try #require(state.csrfHeaders.first { $0 != "none" })
    #expect(
      state.requestLines == [
        "POST /api/auth/login/", "GET /api/todos/", "POST /api/todos/", "POST /api/auth/logout/",
      ])
    #expect(state.csrfHeaders == ["none", "none", csrf, csrf], "only the unsafe requests carry it")
    #expect(state.sessions.isEmpty, "the sign-out ended the session")
    #expect(abs(expiresAt.timeIntervalSince(signedIn) - 1_209_600) < 60, "the Max-Age, not the Expires")
    let text = log.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("POST http://") && text.contains("/api/todos/"), "\(text)")
    #expect(!text.contains(csrf) && !text.contains("sessionid="), "a cookie reached the log: \(text)")
  }

  @Test("a session the server dropped is a 403 that ends the session, with no renewal sent")
  func droppedSessionEndsTheSession() async throws {
    let backend = CSRFSessionBackend()
    let container = Self.app(backend).container
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")

    backend.state.withLock { $0.sessions.removeAll() }
    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos.list)
    }

    #expect(backend.state.withLock { $0.requestLines } == ["POST /api/auth/login/", "GET /api/todos/"])
  }

  @Test("a refused CSRF check is the server's sentence, and the session goes on")
  func refusedCSRFCheckKeepsTheSession() async throws {
    let backend = CSRFSessionBackend()
    let container = Self.app(backend, withoutCSRF: true).container
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")

    await #expect(throws: DomainError.forbidden(serverMessage: "CSRF Failed: CSRF token missing.")) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos.create(TodoDTO(title: "Milk")))
    }
    _ = try await container.authenticatedClient.sendTranslatingErrors(Self.todos.list)

    #expect(
      backend.state.withLock { $0.requestLines } == [
        "POST /api/auth/login/", "POST /api/todos/", "GET /api/todos/",
      ])
  }

  @Test(
    "a refused sign-in is invalid credentials with the server's sentence, and nothing the user typed is lost")
  @MainActor
  func refusedSignIn() async {
    await Self.app(CSRFSessionBackend()).container
      .expectRefusedLogin(serverMessage: "Unable to log in with provided credentials.")
  }
}
