import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// An OAuth 2.0 password-grant auth server, in Auth0's shape, on a host of its own: the login is a
/// form posted to `/oauth/token`, answered with `{"access_token", "refresh_token", "expires_in",
/// "token_type"}`, or refused with a 403 whose `error` is a code and whose `error_description` is
/// the sentence. A refresh is the same request with the refresh-token grant.
private final class PasswordGrantTenant: InProcessHandler {
  /// The form fields of every token request, as the server parsed them.
  let forms = Locked<[[String: String]]>([])
  /// The `Authorization` header of every request, which no token request needs.
  let presented = Locked<[String?]>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    presented.withLock { $0.append(request.header("Authorization")) }
    guard request.method == "POST", request.percentEncodedPath == "/oauth/token" else {
      return .json(404, text: #"{"error":"not_found"}"#)
    }
    let form = request.formFields
    forms.withLock { $0.append(form) }
    switch (form["grant_type"], form["password"], form["refresh_token"]) {
    case ("password", "p@ss word&=+%", _):
      return .json(
        200,
        text:
          #"{"access_token":"oauth-access-1","refresh_token":"oauth-refresh-1","expires_in":86400,"token_type":"Bearer"}"#
      )
    case ("refresh_token", _, "oauth-refresh-1"):
      return .json(200, text: #"{"access_token":"oauth-access-2","expires_in":86400,"token_type":"Bearer"}"#)
    default:
      return .json(403, text: #"{"error":"invalid_grant","error_description":"Wrong email or password."}"#)
    }
  }
}

/// The app's own API, on another host than its auth server: it takes only the second access token,
/// as if the first had been revoked.
private final class ProfileAPI: InProcessHandler {
  /// The method, path and `Authorization` header of every request.
  let received = Locked<[String]>([])

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let authorization = request.header("Authorization") ?? "none"
    received.withLock { $0.append("\(request.method) \(request.percentEncodedPath) \(authorization)") }
    guard request.percentEncodedPath == "/userinfo" else {
      return .json(404, text: #"{"error":"not_found"}"#)
    }
    guard authorization == "Bearer oauth-access-2" else {
      return .json(401, text: #"{"error":"invalid_token"}"#)
    }
    return .json(200, text: #"{"sub":"auth0|1"}"#)
  }
}

/// The password grant's login contract, as an app writes it for such a backend.
private struct PasswordGrantAuthContract: AuthContract {
  /// The auth server, on a host of its own (`https://tenant.auth0.com`).
  let tenant: URL

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

  /// The grant's answer as tokens, from the auth server rather than the API.
  private func issuing(_ endpoint: Endpoint<OAuthTokenAnswer>) -> Endpoint<IssuedTokens> {
    var endpoint = endpoint
    endpoint.baseURL = tenant
    return endpoint.map(\.issued)
  }
}

@Suite(
  "An OAuth password-grant backend: an auth server on a host of its own, a form login, its refusal sentence",
  .timeLimit(.minutes(1)))
struct OAuthBackendTests {
  /// A container for the API, whose login contract sends to the auth server's host.
  private static func app(tenant: PasswordGrantTenant, api: ProfileAPI) -> AppContainer {
    let (apiHost, tenantHost) = (InProcessTransport(api), InProcessTransport(tenant))
    var configuration = AppConfiguration(
      baseURL: apiHost.baseURL, transport: InProcessHosts(apiHost, tenantHost))
    configuration.authContract = PasswordGrantAuthContract(tenant: tenantHost.baseURL)
    return AppContainer(configuration: configuration)
  }

  @Test(
    "the login and the refresh reach the auth server as forms it parses as typed; the tokens go only to the API"
  )
  func tokensComeFromTheAuthServer() async throws {
    let (tenant, api) = (PasswordGrantTenant(), ProfileAPI())
    let container = Self.app(tenant: tenant, api: api)
    _ = try await container.session.logIn(username: "ada@example.com", password: "p@ss word&=+%")
    _ = try await container.authenticatedClient.send(
      Endpoint<NoContent>(path: ["userinfo"], requiresAuthentication: true))

    #expect(
      tenant.forms.withLock { $0 } == [
        ["grant_type": "password", "username": "ada@example.com", "password": "p@ss word&=+%"],
        ["grant_type": "refresh_token", "refresh_token": "oauth-refresh-1"],
      ])
    #expect(tenant.presented.withLock { $0 } == [nil, nil], "no token reached the auth server")
    #expect(
      api.received.withLock { $0 } == [
        "GET /userinfo Bearer oauth-access-1", "GET /userinfo Bearer oauth-access-2",
      ],
      "the API got its own requests, signed, and no login or refresh")
  }

  @Test(
    "a 403 refusal is a wrong password, and its error_description, not its error code, reaches the screen")
  @MainActor
  func refusalSentenceReachesTheScreen() async {
    let (tenant, api) = (PasswordGrantTenant(), ProfileAPI())
    await Self.app(tenant: tenant, api: api).expectRefusedLogin(
      username: "ada@example.com", serverMessage: "Wrong email or password.")
    #expect(tenant.forms.withLock { $0.map { $0["password"] } } == ["wrong"])
    #expect(api.received.withLock { $0 }.isEmpty)
  }
}
