import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

/// The media type of AWS's JSON protocol, which every request and answer of the auth service
/// declares. It has no `+json` suffix, so it is no JSON type by name.
private let awsJSON = "application/x-amz-json-1.1"

/// Coders for a service whose field names are PascalCase (`AuthFlow`, `IdToken`): Swift's
/// lowerCamelCase property names with the first letter raised or lowered on the way.
private enum PascalCase {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static func key(_ path: [any CodingKey], _ change: (String) -> String) -> any CodingKey {
    // The coders always pass a path that ends in the key at hand; an index is left as it is.
    guard let last = path.last else { return Key(stringValue: "") }
    guard last.intValue == nil else { return last }
    let name = last.stringValue
    return Key(stringValue: change(String(name.prefix(1))) + name.dropFirst())
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .custom { key($0) { $0.uppercased() } }
    return encoder
  }

  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { key($0) { $0.lowercased() } }
    return decoder
  }
}

/// An auth service in the shape of Amazon Cognito's user pools: one URL for everything, the
/// operation named in `X-Amz-Target`, bodies in AWS's own JSON media type with PascalCase
/// fields, the tokens nested in `AuthenticationResult`, a renewal that answers no new refresh
/// token, and every refusal a 400 with its kind in `__type` and its sentence in `message`.
private final class RPCAuthService: InProcessHandler {
  struct Call: Equatable {
    var line: String
    var target: String?
    var contentType: String?
  }

  struct State {
    var calls: [Call] = []
    /// The `AuthParameters`, `Token` or `AccessToken` of each call, as the server parsed them.
    var parameters: [[String: String]] = []
    var tokens = IssuedTokenSets()
    var revoked: [String] = []
  }

  let state = Locked(State())

  private struct Body: Decodable {
    var authFlow: String?
    var clientId: String?
    var authParameters: [String: String]?
    var token: String?
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let target = request.header("X-Amz-Target")
    state.withLock {
      $0.calls.append(
        Call(
          line: "\(request.method) \(request.percentEncodedPath)", target: target,
          contentType: request.header("Content-Type")))
    }
    guard request.header("Content-Type") == awsJSON,
      let body = try? PascalCase.decoder.decode(Body.self, from: request.body),
      body.clientId == RPCAuthBackendTests.clientID
    else {
      return Self.answer(400, #"{"__type":"SerializationException","message":"Bad request"}"#)
    }
    let parameters = body.authParameters ?? body.token.map { ["Token": $0] } ?? [:]
    state.withLock { $0.parameters.append(parameters) }
    switch (target, body.authFlow) {
    case ("AWSCognitoIdentityProviderService.InitiateAuth", "USER_PASSWORD_AUTH"):
      guard parameters["PASSWORD"] == "correct-horse-battery-staple" else {
        return Self.answer(
          400, #"{"__type":"NotAuthorizedException","message":"Incorrect username or password."}"#)
      }
      let (id, refresh) = state.withLock { $0.tokens.issuePair() }
      return Self.answer(
        200,
        #"{"AuthenticationResult":{"AccessToken":"cognito-access","ExpiresIn":3600,"IdToken":"\#(id)","RefreshToken":"\#(refresh)","TokenType":"Bearer"},"ChallengeParameters":{}}"#
      )
    case ("AWSCognitoIdentityProviderService.InitiateAuth", "REFRESH_TOKEN_AUTH"):
      let id: String? = state.withLock { state in
        guard let refresh = parameters["REFRESH_TOKEN"], state.tokens.refresh.contains(refresh) else {
          return nil
        }
        return state.tokens.issueAccess()
      }
      guard let id else {
        return Self.answer(
          400, #"{"__type":"NotAuthorizedException","message":"Refresh Token has been revoked"}"#)
      }
      // A renewal answers no refresh token: the one the app holds stays valid.
      return Self.answer(
        200,
        #"{"AuthenticationResult":{"AccessToken":"cognito-access","ExpiresIn":3600,"IdToken":"\#(id)","TokenType":"Bearer"},"ChallengeParameters":{}}"#
      )
    case ("AWSCognitoIdentityProviderService.RevokeToken", nil):
      state.withLock { state in
        guard let token = body.token else { return }
        state.revoked.append(token)
        state.tokens.refresh.remove(token)
      }
      return Self.answer(200, "{}")
    default:
      return Self.answer(400, #"{"__type":"UnknownOperationException"}"#)
    }
  }

  static func answer(_ status: Int, _ text: String) -> InProcessReply {
    .respond(InProcessResponse(status: status, headers: ["Content-Type": awsJSON], body: Data(text.utf8)))
  }
}

/// An API behind an API Gateway whose authorizer takes the ID token itself as the
/// `Authorization` header, with no scheme.
private final class GatewayAPI: InProcessHandler {
  let presented = Locked<[String?]>([])
  let tokens: @Sendable () -> Set<String>

  init(tokens: @escaping @Sendable () -> Set<String>) {
    self.tokens = tokens
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let token = request.header("Authorization")
    presented.withLock { $0.append(token) }
    guard let token, tokens().contains(token) else {
      return .json(401, text: #"{"message":"The incoming token has expired"}"#)
    }
    return .json(200, text: "[]")
  }
}

/// The login contract an app writes for such a service: each operation an endpoint of its own at
/// the service's one URL.
private struct RPCAuthContract: AuthContract {
  let service: URL

  /// An operation's input, its fields named in PascalCase by the coders (`AuthFlow`).
  private struct Operation: Encodable, Sendable {
    var authFlow: String?
    var clientId = RPCAuthBackendTests.clientID
    var authParameters: [String: String]?
    var token: String?
  }

  private struct Answer: Decodable, Sendable {
    struct Result: Decodable, Sendable {
      var idToken: String
      var refreshToken: String?
      var expiresIn: Double
    }

    var authenticationResult: Result
  }

  private struct Nothing: Decodable, Sendable {}

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    issuing(
      Operation(authFlow: "USER_PASSWORD_AUTH", authParameters: ["USERNAME": username, "PASSWORD": password]))
  }

  /// The API takes the ID token; the refresh token renews it, and the renewal answers none.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    issuing(Operation(authFlow: "REFRESH_TOKEN_AUTH", authParameters: ["REFRESH_TOKEN": tokens.refreshToken]))
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    call("RevokeToken", Operation(token: tokens.refreshToken), answer: Nothing.self).map { _ in NoContent() }
  }

  /// Every refusal is a 400 here, a wrong password included.
  var refusedLoginStatuses: Set<Int> { [400] }

  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  /// The authorizer reads the bare token.
  var tokenScheme: String? { nil }

  private func issuing(_ operation: Operation) -> Endpoint<IssuedTokens> {
    call("InitiateAuth", operation, answer: Answer.self).map { answer in
      let result = answer.authenticationResult
      return IssuedTokens(
        accessToken: result.idToken, refreshToken: result.refreshToken,
        expiry: .after(seconds: result.expiresIn))
    }
  }

  /// One operation: a POST to the service's URL, named in `X-Amz-Target`, in AWS's media type
  /// both ways.
  private func call<Answer: Decodable & Sendable>(
    _ name: String, _ operation: Operation, answer: Answer.Type
  ) -> Endpoint<Answer> {
    var body = HTTPBody.json(operation, encoder: PascalCase.encoder)
    body.contentType = awsJSON
    var endpoint = Endpoint<Answer>(
      method: .post, path: [], headers: ["X-Amz-Target": "AWSCognitoIdentityProviderService.\(name)"],
      body: body, decoder: PascalCase.decoder)
    endpoint.accept = awsJSON
    endpoint.baseURL = service
    return endpoint
  }
}

@Suite(
  "An RPC-style auth service in Cognito's shape: one URL, the operation in a header, a media type of its own",
  .timeLimit(.minutes(1)))
struct RPCAuthBackendTests {
  static let clientID = "client-5k2l"
  private static let todos = Endpoint<[String]>(path: ["todos"], requiresAuthentication: true)

  private struct Backend {
    let service = RPCAuthService()
    let api: GatewayAPI

    init() {
      let state = service.state
      api = GatewayAPI { state.withLock { $0.tokens.access } }
    }

    func app() -> (container: AppContainer, log: Locked<[String]>) {
      let serviceHost = InProcessTransport(service)
      return AppContainer.servingWithLog(api: InProcessTransport(api), beside: serviceHost) {
        $0.authContract = RPCAuthContract(service: serviceHost.baseURL)
      }
    }
  }

  @Test(
    "sign-in, renewal and sign-out reach the one URL as their operations in AWS's media type, and the API gets the bare ID token"
  )
  func operationsAtOneURL() async throws {
    let backend = Backend()
    let (container, log) = backend.app()
    _ = try await container.session.logIn(username: "ada", password: "correct-horse-battery-staple")
    let (firstID, refreshToken) = try #require(
      backend.service.state.withLock { state in
        state.tokens.access.first.map { ($0, state.tokens.refresh.first) }
      })
    _ = try await container.authenticatedClient.send(Self.todos)
    // The API stops taking the ID token: it is renewed with the refresh token, twice.
    for _ in 0..<2 {
      backend.service.state.withLock { $0.tokens.access.removeAll() }
      _ = try await container.authenticatedClient.send(Self.todos)
    }
    await container.session.logOut()

    let state = backend.service.state.withLock { $0 }
    let target = "AWSCognitoIdentityProviderService."
    #expect(
      state.calls == [
        .init(line: "POST /", target: target + "InitiateAuth", contentType: awsJSON),
        .init(line: "POST /", target: target + "InitiateAuth", contentType: awsJSON),
        .init(line: "POST /", target: target + "InitiateAuth", contentType: awsJSON),
        .init(line: "POST /", target: target + "RevokeToken", contentType: awsJSON),
      ])
    let refresh = try #require(refreshToken)
    #expect(
      state.parameters == [
        ["USERNAME": "ada", "PASSWORD": "correct-horse-battery-staple"], ["REFRESH_TOKEN": refresh],
        ["REFRESH_TOKEN": refresh], ["Token": refresh],
      ], "the one refresh token renews twice and is revoked at sign-out")
    let presented = backend.api.presented.withLock { $0 }
    #expect(presented.count == 5 && presented.first == firstID, "\(presented)")
    #expect(
      presented.allSatisfy { $0?.hasPrefix("access-") == true }, "the bare ID token, no scheme: \(presented)")
    #expect(Set(presented.compactMap { $0 }).count == 3, "the ID token of the login, then of each renewal")
    let text = log.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("POST"), "the operations were logged: \(text)")
    for secret in [firstID, refresh, "correct-horse-battery-staple"] {
      #expect(!text.contains(secret), "a secret reached the log: \(text)")
    }
  }

  @Test("a wrong password's 400 shows the service's message on the login screen")
  @MainActor
  func refusedLogin() async {
    let backend = Backend()
    await backend.app().container.expectRefusedLogin(
      username: "ada", serverMessage: "Incorrect username or password.")
    #expect(backend.api.presented.withLock { $0 }.isEmpty)
  }

  @Test("a revoked refresh token's 400 ends the session, and the request is not sent again")
  func revokedRefreshTokenEndsTheSession() async throws {
    let backend = Backend()
    let (container, _) = backend.app()
    _ = try await container.session.logIn(username: "ada", password: "correct-horse-battery-staple")
    backend.service.state.withLock { state in
      state.tokens.access.removeAll()
      state.tokens.refresh.removeAll()
    }

    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.todos)
    }
    #expect(backend.api.presented.withLock { $0 }.count == 1)
    #expect(backend.service.state.withLock { $0.calls.count } == 2, "the login and one renewal")
  }
}
