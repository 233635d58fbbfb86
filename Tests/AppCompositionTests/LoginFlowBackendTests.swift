import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend whose sign-in takes three requests, in Home Assistant's shape, as its real server
/// answers: a login flow is begun (`POST /auth/login_flow`), the username and password are
/// submitted to that flow, which answers a one-time code, and the code is exchanged for tokens at
/// `/auth/token`, a form. A wrong password is no error status: the flow answers 200 and stays at
/// its form, with `invalid_auth` among its errors. A renewal answers an access token only; a
/// sign-out revokes the refresh token at `/auth/revoke`.
private final class LoginFlowBackend: InProcessHandler {
  struct State {
    /// The method and path of every request, in order.
    var requestLines: [String] = []
    /// The form of every `/auth/token` and `/auth/revoke` request, as the server parsed it.
    var forms: [[String: String]] = []
    /// The access token each `/api/states` request presented.
    var presented: [String] = []
    var flows: Set<String> = []
    var codes: Set<String> = []
    var tokens = IssuedTokenSets()
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    let path = request.percentEncodedPath
    if request.method == "POST", path.hasPrefix("/auth/login_flow/") {
      return submit(request, to: String(path.dropFirst("/auth/login_flow/".count)))
    }
    switch (request.method, path) {
    case ("POST", "/auth/login_flow"):
      let flow = UUID().uuidString.lowercased()
      state.withLock { _ = $0.flows.insert(flow) }
      return .json(200, text: #"{"type":"form","flow_id":"\#(flow)","step_id":"init","errors":{}}"#)
    case ("POST", "/auth/token"):
      return token(request.formFields)
    case ("POST", "/auth/revoke"):
      let form = request.formFields
      state.withLock { state in
        state.forms.append(form)
        _ = form["token"].map { state.tokens.refresh.remove($0) }
      }
      return .respond(InProcessResponse(status: 200))
    case ("GET", "/api/states"):
      let token = request.bearerToken ?? "none"
      let accepted = state.withLock { state in
        state.presented.append(token)
        return state.tokens.access.contains(token)
      }
      guard accepted else {
        return .respond(
          InProcessResponse(
            status: 401, headers: ["Content-Type": "text/plain"], body: Data("401: Unauthorized".utf8)))
      }
      return .json(200, text: "[]")
    default:
      return .json(404, text: #"{"message":"Not found"}"#)
    }
  }

  /// Ends every access token issued so far, as their thirty minutes would.
  func expireAccessTokens() {
    state.withLock { $0.tokens.access.removeAll() }
  }

  private func submit(_ request: InProcessRequest, to flow: String) -> InProcessReply {
    let fields = request.jsonFields
    return state.withLock { state in
      guard state.flows.contains(flow) else {
        return .json(404, text: #"{"message":"Invalid flow specified"}"#)
      }
      guard fields["username"] == "alice", fields["password"] == "correct horse" else {
        return .json(
          200,
          text: #"{"type":"form","flow_id":"\#(flow)","step_id":"init","errors":{"base":"invalid_auth"}}"#)
      }
      state.flows.remove(flow)
      let code = UUID().uuidString.lowercased()
      state.codes.insert(code)
      return .json(200, text: #"{"type":"create_entry","flow_id":"\#(flow)","result":"\#(code)"}"#)
    }
  }

  private func token(_ form: [String: String]) -> InProcessReply {
    state.withLock { state in
      state.forms.append(form)
      switch form["grant_type"] {
      case "authorization_code":
        guard let code = form["code"], state.codes.remove(code) != nil else {
          return .json(400, text: #"{"error":"invalid_request","error_description":"Invalid code"}"#)
        }
        let (access, refresh) = state.tokens.issuePair()
        return .json(
          200,
          text:
            #"{"access_token":"\#(access)","token_type":"Bearer","refresh_token":"\#(refresh)","expires_in":1800}"#
        )
      case "refresh_token":
        guard let refresh = form["refresh_token"], state.tokens.refresh.contains(refresh) else {
          return .json(400, text: #"{"error":"invalid_grant"}"#)
        }
        let access = state.tokens.issueAccess()
        return .json(200, text: #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":1800}"#)
      default:
        return .json(400, text: #"{"error":"unsupported_grant_type"}"#)
      }
    }
  }
}

/// The contract an app writes for that backend: its sign-in is a ``LoginSteps`` of its own.
private struct LoginFlowAuthContract: AuthContract {
  static let clientID = "https://app.example/"

  func logIn(username: String, password: String) -> LoginFlow {
    LoginFlow(username: username, password: password)
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Self.tokenRequest([
      URLQueryItem(name: "grant_type", value: "refresh_token"),
      URLQueryItem(name: "refresh_token", value: tokens.refreshToken),
      URLQueryItem(name: "client_id", value: Self.clientID),
    ])
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(
      method: .post, path: ["auth", "revoke"],
      body: .form([URLQueryItem(name: "token", value: tokens.refreshToken)]))
  }

  /// A form posted to `/auth/token`, its answer read as tokens.
  static func tokenRequest(_ form: [URLQueryItem]) -> Endpoint<IssuedTokens> {
    Endpoint<OAuthTokenAnswer>(method: .post, path: ["auth", "token"], body: .form(form)).map(\.issued)
  }
}

/// The sign-in: a flow begun, the credentials submitted to it, and the code it answers
/// exchanged for tokens, the last request the one `tokenRequest(through:)` returns.
private struct LoginFlow: LoginSteps {
  let username: String
  let password: String

  private struct Begin: Encodable, Sendable {
    var clientID = LoginFlowAuthContract.clientID
    var handler: [String?] = ["homeassistant", nil]
    var redirectURI = LoginFlowAuthContract.clientID

    enum CodingKeys: String, CodingKey {
      case clientID = "client_id"
      case handler
      case redirectURI = "redirect_uri"
    }
  }

  /// Where the flow stands: still at its form, or done with a code.
  private struct Step: Decodable, Sendable {
    var type: String
    var flowID: String
    var result: String?

    enum CodingKeys: String, CodingKey {
      case type
      case flowID = "flow_id"
      case result
    }
  }

  func tokenRequest(through client: any HTTPClient) async throws(NetworkError) -> Endpoint<IssuedTokens> {
    let flow = try await client.send(
      Endpoint<Step>(method: .post, path: ["auth", "login_flow"], body: .json(Begin())))
    let credentials = [
      "client_id": LoginFlowAuthContract.clientID, "username": username, "password": password,
    ]
    let step = try await client.send(
      Endpoint<Step>(method: .post, path: ["auth", "login_flow", flow.flowID], body: .json(credentials)))
    // A wrong password leaves the flow at its form: the refusal a 401 would be.
    guard step.type == "create_entry", let code = step.result else {
      throw .badStatus(code: 401, bodyExcerpt: nil)
    }
    var exchange = LoginFlowAuthContract.tokenRequest([
      URLQueryItem(name: "grant_type", value: "authorization_code"), URLQueryItem(name: "code", value: code),
      URLQueryItem(name: "client_id", value: LoginFlowAuthContract.clientID),
    ])
    // The code is a credential until it is spent, under a name that does not say so.
    exchange.credentials.append(code)
    return exchange
  }
}

@Suite(
  "A sign-in in several requests, in Home Assistant's shape: a login flow, then a code exchanged for tokens",
  .timeLimit(.minutes(1)))
struct LoginFlowBackendTests {
  @Test(
    "the flow is begun, the credentials submitted and the code exchanged, in order; the session renews and signs out as its contract says"
  )
  func signInInThreeRequests() async throws {
    let backend = LoginFlowBackend()
    let (container, log) = AppContainer.servingWithLog(backend) { $0.authContract = LoginFlowAuthContract() }
    let states = Endpoint<NoContent>(path: ["api", "states"], requiresAuthentication: true)

    _ = try await container.session.logIn(username: "alice", password: "correct horse")
    _ = try await container.authenticatedClient.send(states)
    backend.expireAccessTokens()
    _ = try await container.authenticatedClient.send(states)
    await container.session.logOut()

    let state = backend.state.withLock { $0 }
    let flow = try #require(state.requestLines.dropFirst().first?.split(separator: "/").last)
    #expect(
      state.requestLines == [
        "POST /auth/login_flow", "POST /auth/login_flow/\(flow)", "POST /auth/token", "GET /api/states",
        "GET /api/states", "POST /auth/token", "GET /api/states", "POST /auth/revoke",
      ])
    #expect(
      state.forms.map { $0["grant_type"] ?? "revoke" } == ["authorization_code", "refresh_token", "revoke"])
    let refreshToken = try #require(state.forms[1]["refresh_token"])
    #expect(
      state.forms[2]["token"] == refreshToken, "the sign-out revoked the refresh token the login issued")
    #expect(state.tokens.refresh.isEmpty, "the server keeps no refresh token")
    #expect(
      state.presented.count == 3 && state.presented[1] == state.presented[0]
        && state.presented[2] != state.presented[0])

    let secrets = ["correct horse", try #require(state.forms[0]["code"]), refreshToken] + state.presented
    let text = log.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("/auth/login_flow/\(flow)"), "the log shows each step")
    for secret in secrets { #expect(!text.contains(secret), "no password, code or token in the log") }
  }

  @Test("a wrong password, which the flow answers with a 200 that names invalid_auth, is a refused login")
  @MainActor
  func wrongPasswordIsARefusedLogin() async {
    let backend = LoginFlowBackend()
    await AppContainer.serving(backend) { $0.authContract = LoginFlowAuthContract() }
      .expectRefusedLogin(username: "alice", serverMessage: nil)
    let lines = backend.state.withLock { $0.requestLines }
    #expect(lines.count == 2 && lines[0] == "POST /auth/login_flow", "no code was asked for: \(lines)")
  }
}
