import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend that issues one token and no refresh token, in the shape of Django REST framework's
/// `TokenAuthentication`: `POST /api-token-auth/` answers `{"token"}`, requests present
/// `Authorization: Token …`, a token the server no longer knows gets a 401, and a wrong password a
/// 400 whose sentence is in `non_field_errors`.
private final class TokenOnlyBackend: InProcessHandler {
  let requestLines = Locked<[String]>([])
  let validTokens = Locked<Set<String>>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    requestLines.withLock { $0.append("\(request.method) \(request.percentEncodedPath)") }
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/api-token-auth/"):
      let fields = request.jsonFields
      guard fields["password"] == "correct-horse-battery-staple" else {
        return .json(400, text: #"{"non_field_errors":["Unable to log in with provided credentials."]}"#)
      }
      let token = "drf-\(UUID().uuidString)"
      validTokens.withLock { _ = $0.insert(token) }
      return .json(200, text: #"{"token":"\#(token)"}"#)
    case ("GET", "/api/todos/"):
      let presented = request.header("Authorization") ?? ""
      guard presented.hasPrefix("Token "),
        validTokens.withLock({ $0.contains(String(presented.dropFirst(6))) })
      else {
        return .json(401, text: #"{"detail":"Invalid token."}"#)
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"detail":"Not found."}"#)
    }
  }
}

/// The contract of a backend without refresh tokens.
private struct TokenOnlyAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct Token: Decodable, Sendable {
    var token: String
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<Token>(
      method: .post, path: ["api-token-auth"],
      body: .json(Credentials(username: username, password: password))
    )
    .endingWithSlash()
    .map { IssuedTokens(accessToken: $0.token, refreshToken: nil, expiry: .unknown) }
  }

  /// A wrong password is a 400 here.
  var refusedLoginStatuses: Set<Int> { [400] }

  /// The backend's `non_field_errors`, which it writes for people.
  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  /// Never sent: the backend issues no refresh token, so its sessions are not renewed.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    logIn(username: "", password: "")
  }

  /// `Authorization: Token …`.
  var tokenScheme: String? { "Token" }
}

@Suite("A backend that issues no refresh token", .timeLimit(.minutes(1)))
struct TokenOnlyBackendTests {
  private static func app(_ backend: TokenOnlyBackend) -> AppContainer {
    .serving(backend) { $0.authContract = TokenOnlyAuthContract() }
  }

  private static let todos = Endpoint<[String]>(path: ["api", "todos"], requiresAuthentication: true)
    .endingWithSlash()

  @Test(
    "a rejected token ends the session at once, with no refresh request, and the next request is not sent")
  func rejectedTokenEndsTheSession() async throws {
    let backend = TokenOnlyBackend()
    let container = Self.app(backend)
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    _ = try await container.authenticatedClient.send(Self.todos)
    let sessions = StreamRecorder(container.session.sessionUpdates())

    // The token is deleted at the server, as when the user signs out on another device.
    backend.validTokens.withLock { $0.removeAll() }
    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos)
    }
    await #expect(throws: NetworkError.unauthorized) {
      try await container.authenticatedClient.send(Self.todos)
    }

    #expect(
      backend.requestLines.withLock { $0 } == ["POST /api-token-auth/", "GET /api/todos/", "GET /api/todos/"])
    #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
  }

  @Test("a refused login is invalid credentials, and the server's non_field_errors reach the screen")
  @MainActor
  func refusedLoginSentenceReachesTheScreen() async {
    let backend = TokenOnlyBackend()
    await Self.app(backend).expectRefusedLogin(serverMessage: "Unable to log in with provided credentials.")
    #expect(backend.requestLines.withLock { $0 } == ["POST /api-token-auth/"])
  }
}
