import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// An auth server in the shape of Firebase Authentication's REST API: a host that signs in, at a
/// custom-method path with the app's API key in the query, answering the lifetime in seconds as
/// a string; or that refuses a wrong password with a 400 whose message is a code, not a sentence.
/// It is also the shape of the host that renews, which takes a form instead.
private final class TokenHost: InProcessHandler {
  /// The request line of every request, its query included.
  let lines = Locked<[String]>([])
  /// The `Authorization` header of every request, which none of them needs.
  let presented = Locked<[String?]>([])
  /// The body of every request, as text.
  let bodies = Locked<[String]>([])
  private let answer: @Sendable (String) -> InProcessReply

  init(answer: @escaping @Sendable (_ body: String) -> InProcessReply) {
    self.answer = answer
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let query = request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
    lines.withLock { $0.append("\(request.method) \(request.percentEncodedPath)?\(query)") }
    presented.withLock { $0.append(request.header("Authorization")) }
    let body = String(decoding: request.body, as: UTF8.self)
    bodies.withLock { $0.append(body) }
    return answer(body)
  }
}

/// The app's own API on a third host: it takes only the renewed ID token, as if the first had
/// been revoked.
private final class DocumentsAPI: InProcessHandler {
  let presented = Locked<[String?]>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    presented.withLock { $0.append(request.header("Authorization")) }
    guard request.header("Authorization") == "Bearer id-token-2" else {
      return .json(401, text: #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#)
    }
    return .json(200, text: #"{"documents":[]}"#)
  }
}

/// The Realtime Database's REST API on a third host: it takes the ID token as `auth` in the
/// query, not in a header, and only the renewed one, as if the first had expired.
private final class DatabaseAPI: InProcessHandler {
  /// The query of every request, as it arrived.
  let queries = Locked<[String]>([])
  /// The `Authorization` header of every request, which none of them needs.
  let presented = Locked<[String?]>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    queries.withLock {
      $0.append(request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&"))
    }
    presented.withLock { $0.append(request.header("Authorization")) }
    guard request.query.last(where: { $0.name == "auth" })?.value == "id-token-2" else {
      return .json(401, text: #"{"error" : "Auth token is expired"}"#)
    }
    return .json(200, text: #"{"-Nx1":{"title":"a"}}"#)
  }
}

/// The login contract an app writes for such a backend: each request names its own host.
private struct FirebaseStyleAuthContract: AuthContract {
  let signInHost: URL
  let tokenHost: URL
  let apiKey: String
  /// `auth` for the Realtime Database, which takes the ID token in the query.
  var tokenQueryItem: String? = nil

  private struct SignIn: Encodable, Sendable {
    var email: String
    var password: String
    var returnSecureToken = true
  }

  /// The tokens either host answers with: in camelCase from the sign-in host, in snake_case from
  /// the renewal host, which its decoder converts.
  private struct Session: Decodable, Sendable {
    var idToken: String
    var refreshToken: String
    var expiresIn: String

    var issued: IssuedTokens {
      // The lifetime comes as seconds in a string (`"3600"`).
      IssuedTokens(
        accessToken: idToken, refreshToken: refreshToken,
        expiry: Double(expiresIn).map { .after(seconds: $0) } ?? .unknown)
    }
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    var endpoint = Endpoint<Session>(
      method: .post, path: ["accounts:signInWithPassword"], query: [URLQueryItem(name: "key", value: apiKey)],
      body: .json(SignIn(email: username, password: password)))
    endpoint.baseURL = signInHost
    return endpoint.map(\.issued)
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    let form = [
      URLQueryItem(name: "grant_type", value: "refresh_token"),
      URLQueryItem(name: "refresh_token", value: tokens.refreshToken),
    ]
    let snakeCase = JSONDecoder()
    snakeCase.keyDecodingStrategy = .convertFromSnakeCase
    var endpoint = Endpoint<Session>(
      method: .post, path: ["token"], query: [URLQueryItem(name: "key", value: apiKey)], body: .form(form),
      decoder: snakeCase)
    endpoint.baseURL = tokenHost
    return endpoint.map(\.issued)
  }

  /// A wrong password is a 400 here.
  var refusedLoginStatuses: Set<Int> { [400] }
}

@Suite(
  "A Firebase-style backend: sign-in and renewal each on a host of its own, at custom-method paths",
  .timeLimit(.minutes(1)))
struct FirebaseBackendTests {
  private static let apiKey = "web-api-key-7311"

  /// The sign-in body as the server's JSON parser reads it, in whatever order its keys came.
  private struct SignInBody: Decodable, Equatable {
    var email: String
    var password: String
    var returnSecureToken: Bool
  }

  private struct Backend {
    let signIn = TokenHost { body in
      guard body.contains(#""password":"correct horse""#) else {
        return .json(
          400,
          text:
            #"{"error":{"code":400,"message":"INVALID_LOGIN_CREDENTIALS","errors":[{"reason":"invalid"}]}}"#)
      }
      return .json(200, text: #"{"idToken":"id-token-1","refreshToken":"rt-1","expiresIn":"3600"}"#)
    }
    let renewal = TokenHost { body in
      guard body == "grant_type=refresh_token&refresh_token=rt-1" else {
        return .json(400, text: #"{"error":{"code":400,"message":"INVALID_REFRESH_TOKEN"}}"#)
      }
      return .json(200, text: #"{"id_token":"id-token-2","refresh_token":"rt-2","expires_in":"3600"}"#)
    }
    let api = DocumentsAPI()
    let database = DatabaseAPI()

    /// A container for the API (or, with `tokenQueryItem`, the database), its login contract on
    /// the two token hosts, and its console log.
    func app(tokenQueryItem: String? = nil) -> (container: AppContainer, log: Locked<[String]>) {
      let (signInHost, tokenHost) = (InProcessTransport(signIn), InProcessTransport(renewal))
      let api = tokenQueryItem == nil ? InProcessTransport(api) : InProcessTransport(database)
      return AppContainer.servingWithLog(api: api, beside: signInHost, tokenHost) {
        $0.authContract = FirebaseStyleAuthContract(
          signInHost: signInHost.baseURL.appendingPathComponent("v1"),
          tokenHost: tokenHost.baseURL.appendingPathComponent("v1"), apiKey: FirebaseBackendTests.apiKey,
          tokenQueryItem: tokenQueryItem)
      }
    }
  }

  @Test("the login and the renewal reach their own hosts with the key, and only the API gets the ID token")
  func eachRequestReachesItsHost() async throws {
    let backend = Backend()
    let (container, log) = backend.app()
    _ = try await container.session.logIn(username: "ada@example.com", password: "correct horse")
    _ = try await container.authenticatedClient.send(
      Endpoint<NoContent>(path: ["documents"], requiresAuthentication: true))

    #expect(
      backend.signIn.lines.withLock { $0 } == ["POST /v1/accounts:signInWithPassword?key=\(Self.apiKey)"])
    let signIn = try #require(backend.signIn.bodies.withLock { $0.first })
    #expect(
      try JSONDecoder().decode(SignInBody.self, from: Data(signIn.utf8))
        == SignInBody(email: "ada@example.com", password: "correct horse", returnSecureToken: true))
    #expect(backend.renewal.lines.withLock { $0 } == ["POST /v1/token?key=\(Self.apiKey)"])
    #expect(backend.api.presented.withLock { $0 } == ["Bearer id-token-1", "Bearer id-token-2"])
    #expect(
      (backend.signIn.presented.withLock { $0 } + backend.renewal.presented.withLock { $0 }) == [nil, nil],
      "no ID token reached a token host")
    let text = log.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("accounts:signInWithPassword"), "the login was logged: \(text)")
    for secret in [Self.apiKey, "id-token-", "rt-1", "rt-2", "correct horse"] {
      #expect(!text.contains(secret), "\(secret) reached the log")
    }
  }

  @Test(
    "the Realtime Database gets the ID token as auth in the query, after the endpoint's own items, and a renewed one after a 401"
  )
  func tokenInTheQuery() async throws {
    let backend = Backend()
    let (container, log) = backend.app(tokenQueryItem: "auth")
    _ = try await container.session.logIn(username: "ada@example.com", password: "correct horse")
    let todos = Endpoint<[String: [String: String]]>(
      path: ["todos.json"], query: [URLQueryItem(name: "orderBy", value: "\"$key\"")],
      requiresAuthentication: true)

    let read = try await container.authenticatedClient.send(todos)

    #expect(read == ["-Nx1": ["title": "a"]])
    #expect(
      backend.database.queries.withLock { $0 } == [
        #"orderBy="$key"&auth=id-token-1"#, #"orderBy="$key"&auth=id-token-2"#,
      ])
    #expect(backend.database.presented.withLock { $0 } == [nil, nil], "no header carried the token")
    #expect(backend.renewal.lines.withLock { $0 }.count == 1, "one renewal")
    let text = log.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("todos.json?orderBy="), "the request was logged: \(text)")
    for secret in ["id-token-", "rt-1", "rt-2", "correct horse"] {
      #expect(!text.contains(secret), "\(secret) reached the log")
    }
  }

  @Test("a 400 whose message is a code is a wrong password, shown in the screen's own words")
  @MainActor
  func refusedLogin() async {
    let backend = Backend()
    await backend.app().container.expectRefusedLogin(username: "ada@example.com", serverMessage: nil)
    #expect(backend.api.presented.withLock { $0 }.isEmpty)
  }
}
