import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// An OAuth 2.0 password-grant backend, in Auth0's shape: the login is a form posted to
/// `/oauth/token`, answered with `{"access_token", "refresh_token", "expires_in", "token_type"}`, or
/// refused with a 403 whose `error` is a code and whose `error_description` is the sentence.
private final class PasswordGrantBackend: InProcessHandler {
  /// The form fields of every login, as the server parsed them.
  let forms = Locked<[[String: String]]>([])
  /// The `Authorization` header of every request for the user's profile.
  let presented = Locked<[String?]>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/oauth/token"):
      let form = Self.form(request.body)
      forms.withLock { $0.append(form) }
      guard form["grant_type"] == "password", form["password"] == "p@ss word&=+%" else {
        return .json(403, text: #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#)
      }
      return .json(
        200,
        text:
          #"{"access_token":"oauth-access-1","refresh_token":"oauth-refresh-1","expires_in":86400,"token_type":"Bearer"}"#
      )
    case ("GET", "/userinfo"):
      presented.withLock { $0.append(request.header("Authorization")) }
      return .json(200, text: #"{"sub":"auth0|1"}"#)
    default:
      return .json(404, text: #"{"error":"not_found"}"#)
    }
  }

  /// An `application/x-www-form-urlencoded` body as a form parser reads it: `+` is a space.
  private static func form(_ body: Data) -> [String: String] {
    var fields: [String: String] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map {
        $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
      }
      fields[parts[0]] = parts.count == 2 ? parts[1] : ""
    }
    return fields
  }
}

/// The password grant's login contract, as an app writes it for such a backend.
private struct PasswordGrantAuthContract: AuthContract {
  private struct Grant: Decodable, Sendable {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Double

    enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case refreshToken = "refresh_token"
      case expiresIn = "expires_in"
    }
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    let form: [URLQueryItem] = [
      URLQueryItem(name: "grant_type", value: "password"), URLQueryItem(name: "username", value: username),
      URLQueryItem(name: "password", value: password),
    ]
    return issuing(Endpoint(method: .post, path: ["oauth", "token"], body: .form(form)))
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    let form: [URLQueryItem] = [
      URLQueryItem(name: "grant_type", value: "refresh_token"),
      URLQueryItem(name: "refresh_token", value: tokens.refreshToken),
    ]
    return issuing(Endpoint(method: .post, path: ["oauth", "token"], body: .form(form)))
  }

  /// A wrong password is a 403 here.
  var refusedLoginStatuses: Set<Int> { [403] }

  /// The `error_description`, which the backend writes for people.
  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  private func issuing(_ endpoint: Endpoint<Grant>) -> Endpoint<IssuedTokens> {
    endpoint.map { grant in
      IssuedTokens(
        accessToken: grant.accessToken, refreshToken: grant.refreshToken,
        expiry: .after(seconds: grant.expiresIn))
    }
  }
}

@Suite(
  "An OAuth password-grant backend: a form login, its own refusal status and sentence",
  .timeLimit(.minutes(1)))
struct OAuthBackendTests {
  private static func app(_ backend: PasswordGrantBackend) -> AppContainer {
    .serving(backend) { $0.authContract = PasswordGrantAuthContract() }
  }

  @Test("the login form reaches the server's parser as typed, and its token signs the next request")
  func formLoginSignsRequests() async throws {
    let backend = PasswordGrantBackend()
    let container = Self.app(backend)
    _ = try await container.session.logIn(username: "ada@example.com", password: "p@ss word&=+%")
    _ = try await container.authenticatedClient.send(
      Endpoint<NoContent>(path: ["userinfo"], requiresAuthentication: true))

    #expect(
      backend.forms.withLock { $0 } == [
        ["grant_type": "password", "username": "ada@example.com", "password": "p@ss word&=+%"]
      ])
    #expect(backend.presented.withLock { $0 } == ["Bearer oauth-access-1"])
  }

  @Test(
    "a 403 refusal is a wrong password, and its error_description, not its error code, reaches the screen")
  @MainActor
  func refusalSentenceReachesTheScreen() async {
    let backend = PasswordGrantBackend()
    await Self.app(backend).expectRefusedLogin(
      username: "ada@example.com", serverMessage: "Wrong email or password.")
    #expect(backend.forms.withLock { $0.map { $0["password"] } } == ["wrong"])
  }
}
