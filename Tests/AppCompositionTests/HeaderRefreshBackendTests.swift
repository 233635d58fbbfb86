import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// A backend in Flask-JWT-Extended's shape: a login answers `{"access_token", "refresh_token"}`, the
/// refresh request presents the refresh token as `Authorization: Bearer …` and is answered with a
/// new access token only (no rotation), errors say why under `msg`, and a token the server cannot
/// verify (signed with a key it has since rotated) gets a 422 rather than a 401, as does a form
/// that fails its schema (flask-smorest's shape).
private final class HeaderRefreshBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    var tokens = IssuedTokenSets()
    /// The `Authorization` header of every refresh request, as the server got it.
    var refreshHeaders: [String] = []
    /// Access tokens signed with a key the server no longer has.
    var unverifiable: Set<String> = []
  }

  let state = Locked(State())

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    let presented = request.header("Authorization") ?? ""
    let bearer = request.bearerToken ?? ""
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/login"):
      let fields = request.jsonFields
      guard fields["password"] == "correct-horse-battery-staple" else {
        return .json(401, text: #"{"msg":"Bad username or password"}"#)
      }
      let (access, refresh) = state.withLock { $0.tokens.issuePair() }
      return .json(200, text: #"{"access_token":"\#(access)","refresh_token":"\#(refresh)"}"#)
    case ("POST", "/refresh"):
      let access: String? = state.withLock { state in
        state.refreshHeaders.append(presented)
        guard state.tokens.refresh.contains(bearer) else { return nil }
        return state.tokens.issueAccess()
      }
      guard let access else { return .json(422, text: #"{"msg":"Signature verification failed"}"#) }
      return .json(200, text: #"{"access_token":"\#(access)"}"#)
    case ("GET", "/protected"), ("POST", "/todos"):
      let (isValid, isUnverifiable) = state.withLock {
        ($0.tokens.access.contains(bearer), $0.unverifiable.contains(bearer))
      }
      if isUnverifiable { return .json(422, text: #"{"msg":"Signature verification failed"}"#) }
      guard isValid else { return .json(401, text: #"{"msg":"Token has expired"}"#) }
      guard request.method == "POST" else { return .json(200, text: "[]") }
      return .json(
        422,
        text:
          #"{"code":422,"errors":{"json":{"title":["Length must be between 1 and 80."]}},"status":"Unprocessable Entity"}"#
      )
    default:
      return .json(404, text: #"{"msg":"Not found"}"#)
    }
  }
}

/// The contract of a backend that takes the refresh token in a header and rejects it with a 422.
private struct HeaderRefreshAuthContract: AuthContract {
  private struct Credentials: Encodable, Sendable {
    var username: String
    var password: String
  }

  private struct Grant: Decodable, Sendable {
    var accessToken: String
    var refreshToken: String?

    enum CodingKeys: String, CodingKey {
      case accessToken = "access_token"
      case refreshToken = "refresh_token"
    }
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(
        method: .post, path: ["login"], body: .json(Credentials(username: username, password: password))))
  }

  /// The refresh token goes where this backend looks for it: in the `Authorization` header.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    issuing(
      Endpoint(method: .post, path: ["refresh"], headers: ["Authorization": "Bearer \(tokens.refreshToken)"]))
  }

  /// A refresh token the server cannot verify is a 422 here, and a revoked one a 401.
  var rejectedRefreshStatuses: Set<Int> { [401, 422] }

  /// An expired access token is a 401; one the server cannot verify a 422 whose `msg` says why,
  /// told apart from a refused form's 422 by that sentence.
  func rejectsAccessToken(_ failure: NetworkError) -> Bool {
    failure.status == 401
      || (failure.status == 422
        && failure.serverSentence.map(Self.unverifiableTokenMessages.contains) == true)
  }

  private static let unverifiableTokenMessages: Set<String> = [
    "Signature verification failed", "Not enough segments", "Invalid header padding",
    "Invalid crypto padding",
  ]

  func refusedLoginMessage(_ refusal: NetworkError) -> String? {
    refusal.serverSentence
  }

  private func issuing(_ endpoint: Endpoint<Grant>) -> Endpoint<IssuedTokens> {
    endpoint.map {
      IssuedTokens(accessToken: $0.accessToken, refreshToken: $0.refreshToken, expiry: .unknown)
    }
  }
}

@Suite("A backend that takes the refresh token in a header", .timeLimit(.minutes(1)))
struct HeaderRefreshBackendTests {
  private static let protected = Endpoint<[String]>(path: ["protected"], requiresAuthentication: true)

  private static func app(_ backend: HeaderRefreshBackend) -> (container: AppContainer, log: Locked<[String]>)
  {
    AppContainer.servingWithLog(backend) { $0.authContract = HeaderRefreshAuthContract() }
  }

  /// A backend, and an app on it that has signed in.
  private static func signedInApp() async throws -> (
    backend: HeaderRefreshBackend, container: AppContainer, log: Locked<[String]>
  ) {
    let backend = HeaderRefreshBackend()
    let (container, log) = app(backend)
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    return (backend, container, log)
  }

  @Test(
    "a rejected access token is renewed with the refresh token in a header, kept when the answer has none, and never logged"
  )
  func refreshTokenInAHeader() async throws {
    let (backend, container, lines) = try await Self.signedInApp()
    let refreshToken = try #require(backend.state.withLock { $0.tokens.refresh.first })

    for _ in 0..<2 {
      // The server forgets every access token: the request is refused, renewed and sent again.
      backend.state.withLock { $0.tokens.access.removeAll() }
      _ = try await container.authenticatedClient.send(Self.protected)
    }

    let state = backend.state.withLock { $0 }
    #expect(
      state.requestLines == [
        "POST /login", "GET /protected", "POST /refresh", "GET /protected", "GET /protected", "POST /refresh",
        "GET /protected",
      ])
    #expect(
      state.refreshHeaders == ["Bearer \(refreshToken)", "Bearer \(refreshToken)"],
      "the one refresh token, kept")
    let log = lines.withLock { $0.joined(separator: "\n") }
    #expect(log.contains("POST") && log.contains("/refresh"), "\(log)")
    #expect(!log.contains(refreshToken), "the refresh token reached the log: \(log)")
  }

  @Test("a refresh token the server rejects with its 422 ends the session, and the next request is not sent")
  func rejectionWithItsOwnStatusEndsTheSession() async throws {
    let (backend, container, _) = try await Self.signedInApp()
    let sessions = StreamRecorder(container.session.sessionUpdates())
    backend.state.withLock { state in
      state.tokens.access.removeAll()
      state.tokens.refresh.removeAll()
    }

    await #expect(throws: DomainError.sessionExpired) {
      try await container.authenticatedClient.sendTranslatingErrors(Self.protected)
    }
    await #expect(throws: NetworkError.unauthorized) {
      try await container.authenticatedClient.send(Self.protected)
    }

    #expect(backend.state.withLock { $0.requestLines } == ["POST /login", "GET /protected", "POST /refresh"])
    #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
  }

  @Test(
    "an access token the server can no longer verify, refused with its 422, is renewed once and the request sent again"
  )
  func unverifiableTokenIsRenewed() async throws {
    let (backend, container, _) = try await Self.signedInApp()
    // The server signs with a new key: the tokens it issued before no longer verify.
    backend.state.withLock { state in
      state.unverifiable = state.tokens.access
      state.tokens.access.removeAll()
    }

    _ = try await container.authenticatedClient.send(Self.protected)

    #expect(
      backend.state.withLock { $0.requestLines }
        == ["POST /login", "GET /protected", "POST /refresh", "GET /protected"])
  }

  @Test("a form refused with a 422 is the form's answer: its field error, no refresh, and the session kept")
  func refusedFormIsNoTokenRefusal() async throws {
    let (backend, container, _) = try await Self.signedInApp()
    let create = Endpoint<NoContent>(
      method: .post, path: ["todos"], body: .json(["title": ""]), requiresAuthentication: true)

    await #expect(
      throws: DomainError.rejected(message: nil, fieldErrors: ["title": ["Length must be between 1 and 80."]])
    ) {
      try await container.authenticatedClient.sendTranslatingErrors(create)
    }

    _ = try await container.authenticatedClient.send(Self.protected)
    #expect(backend.state.withLock { $0.requestLines } == ["POST /login", "POST /todos", "GET /protected"])
  }

  @Test("a refused login's msg reaches the login screen")
  @MainActor
  func refusedLoginSentence() async {
    let (container, _) = Self.app(HeaderRefreshBackend())
    await container.expectRefusedLogin(serverMessage: "Bad username or password")
  }
}
