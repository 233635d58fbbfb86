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

/// A backend in devise-jwt's shape: `POST /users/sign_in` takes `{"user": {"email", "password"}}`
/// and answers the user in the body and the JWT in its `Authorization` response header; there are
/// no refresh tokens; `DELETE /users/sign_out` revokes the token; a wrong password is a 401 whose
/// sentence is under `error`.
private final class ResponseHeaderTokenBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    var validTokens: Set<String> = []
    /// The bearer token of every request that presented one, as the server got it.
    var presented: [String] = []
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let bearer = request.bearerToken
    state.withLock { state in
      state.requestLines.append("\(request.method) \(request.percentEncodedPath)")
      if let bearer { state.presented.append(bearer) }
    }
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/users/sign_in"):
      struct SignIn: Decodable {
        struct User: Decodable {
          var email: String
          var password: String
        }
        var user: User
      }
      guard let signIn = try? JSONDecoder().decode(SignIn.self, from: request.body),
        signIn.user.password == "correct-horse-battery-staple"
      else {
        return .json(401, text: #"{"error":"Invalid Email or password."}"#)
      }
      let token = Self.jwt(expiringAt: Self.expiry)
      state.withLock { _ = $0.validTokens.insert(token) }
      return .respond(
        InProcessResponse(
          status: 200, headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
          body: Data(#"{"id":1,"email":"\#(signIn.user.email)"}"#.utf8)))
    case ("DELETE", "/users/sign_out"):
      state.withLock { state in _ = bearer.map { state.validTokens.remove($0) } }
      return .respond(InProcessResponse(status: 204, headers: [:], body: Data()))
    case ("GET", "/todos"):
      guard let bearer, state.withLock({ $0.validTokens.contains(bearer) }) else {
        return .json(401, text: #"{"error":"You need to sign in or sign up before continuing."}"#)
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"error":"Not Found"}"#)
    }
  }

  /// When every token this backend issues expires: 2100-01-01.
  static let expiry = 4_102_444_800

  /// A JWT whose `exp` is `expiry`, unique per call, signed with nothing the client checks.
  private static func jwt(expiringAt expiry: Int) -> String {
    func part(_ json: String) -> String {
      Data(json.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    return part(#"{"alg":"HS256"}"#) + "."
      + part(#"{"sub":"1","jti":"\#(UUID().uuidString)","exp":\#(expiry)}"#)
      + ".c2lnbmF0dXJl"
  }
}

/// The contract of a backend that hands the token in a response header.
private struct ResponseHeaderTokenAuthContract: AuthContract {
  private struct SignIn: Encodable, Sendable {
    struct User: Encodable, Sendable {
      var email: String
      var password: String
    }
    var user: User
  }

  private struct SignedInUser: Decodable, Sendable {
    var id: Int
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<SignedInUser>(
      method: .post, path: ["users", "sign_in"],
      body: .json(SignIn(user: .init(email: username, password: password)))
    )
    .map { _, response throws(NetworkError) -> IssuedTokens in
      guard let field = response.value(forHTTPHeaderField: "Authorization"), field.hasPrefix("Bearer "),
        case let token = String(field.dropFirst("Bearer ".count)), !token.isEmpty
      else {
        throw .decodingFailed(path: "Authorization", reason: "the sign-in answer carries no bearer token")
      }
      return IssuedTokens(accessToken: token, refreshToken: nil, expiry: .jwt(token))
    }
  }

  /// Never sent: the backend issues no refresh token, so its sessions are not renewed.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    logIn(username: "", password: "")
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(
      method: .delete, path: ["users", "sign_out"], headers: ["Authorization": "Bearer \(tokens.accessToken)"]
    )
  }

  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }
}

@Suite("A backend that answers the token in a response header", .timeLimit(.minutes(1)))
struct ResponseHeaderTokenBackendTests {
  private static let todos = Endpoint<[String]>(path: ["todos"], requiresAuthentication: true)

  @Test(
    "the token a sign-in answers in its Authorization header signs the requests after it, its expiry read from it, and no log line holds it"
  )
  func tokenFromTheResponseHeader() async throws {
    let backend = ResponseHeaderTokenBackend()
    let (expiresAt, text) = try await AppContainer.wholeSession(
      on: backend, contract: ResponseHeaderTokenAuthContract(), sending: Self.todos)

    let state = backend.state.withLock { $0 }
    let token = try #require(state.presented.first)
    #expect(state.presented == [token, token], "the request and the sign-out carried the issued token")
    #expect(state.validTokens.isEmpty, "the sign-out revoked it")
    #expect(expiresAt == Date(timeIntervalSince1970: TimeInterval(ResponseHeaderTokenBackend.expiry)))
    #expect(state.requestLines == ["POST /users/sign_in", "GET /todos", "DELETE /users/sign_out"])
    #expect(text.contains("/users/sign_in") && text.contains("/todos"), "\(text)")
    for secret in [token, "correct-horse-battery-staple"] {
      #expect(!text.contains(secret), "\(secret) appeared in: \(text)")
    }
  }

  @Test("a refused sign-in is invalid credentials, and the server's sentence reaches the screen")
  @MainActor
  func refusedSignIn() async {
    let backend = ResponseHeaderTokenBackend()
    await AppContainer.serving(backend) { $0.authContract = ResponseHeaderTokenAuthContract() }
      .expectRefusedLogin(serverMessage: "Invalid Email or password.")
    #expect(backend.state.withLock { $0.requestLines } == ["POST /users/sign_in"])
  }
}
