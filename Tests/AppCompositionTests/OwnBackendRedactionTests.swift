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

/// A login contract whose fields announce nothing: `{"u", "p"}` in, `{"a", "b"}` out, `{"r"}` to
/// refresh and to log out. Its login body is called `Login`, as many contracts call theirs, which
/// must not be taken for the contract's `Steps`.
private struct TerseAuthContract: AuthContract {
  private struct Login: Encodable, Sendable {
    var u: String
    var p: String
  }

  private struct Refresh: Encodable, Sendable {
    var r: String
  }

  private struct Pair: Decodable, Sendable {
    var a: String
    var b: String
  }

  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<Pair>(method: .post, path: ["login"], body: .json(Login(u: username, p: password)))
      .map { IssuedTokens(accessToken: $0.a, refreshToken: $0.b, expiry: .after(seconds: -1)) }
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Endpoint<Pair>(method: .post, path: ["refresh"], body: .json(Refresh(r: tokens.refreshToken)))
      .map { IssuedTokens(accessToken: $0.a, refreshToken: $0.b, expiry: .unknown) }
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint(method: .post, path: ["logout"], body: .json(Refresh(r: tokens.refreshToken)))
  }
}

/// A sign-in in two steps whose first sends the password under a name that announces nothing,
/// then the terse contract's login.
private struct TerseStepsAuthContract: AuthContract {
  private struct Check: Encodable, Sendable {
    var u: String
    var p: String
  }

  struct Steps: LoginSteps {
    let username: String
    let password: String

    func tokenRequest(through client: any HTTPClient) async throws(NetworkError) -> Endpoint<IssuedTokens> {
      _ = try await client.send(
        Endpoint<NoContent>(method: .post, path: ["check"], body: .json(Check(u: username, p: password))))
      return TerseAuthContract().logIn(username: username, password: password)
    }
  }

  func logIn(username: String, password: String) -> Steps {
    Steps(username: username, password: password)
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    TerseAuthContract().refresh(tokens)
  }
}

@Suite("Secrets of an app's own backend never reach a log", .timeLimit(.minutes(1)))
struct OwnBackendRedactionTests {
  private static let password = "pass-7f3a9c-word"
  private static let access = "acc-5d1e8b-tok"
  private static let refresh = "ref-2c9a4f-tok"

  /// Answers the login with the terse pair, and every other request with an error that echoes
  /// the request's body and headers back, as some servers' error pages do: 503 for a refresh,
  /// which keeps the session, 400 for anything else.
  private static func echoingBackend() -> StubHandler {
    StubHandler { request in
      let json = ["Content-Type": "application/json"]
      if request.path == "/login" {
        return .respond(
          InProcessResponse(
            status: 200, headers: json, body: Data(#"{"a":"\#(access)","b":"\#(refresh)"}"#.utf8)))
      }
      let headers = request.headers.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ";")
      let echo =
        #"{"error":"refused","body":"# + String(decoding: request.body, as: UTF8.self)
        + #","headers":"\#(headers)"}"#
      let status = request.path == "/refresh" ? 503 : 400
      return .respond(InProcessResponse(status: status, headers: json, body: Data(echo.utf8)))
    }
  }

  /// A container on the echoing backend, configured by `configure`, and its verbose log.
  private static func app(
    _ configure: (inout AppConfiguration) -> Void
  ) -> (container: AppContainer, log: Locked<[String]>) {
    AppContainer.servingWithLog(echoingBackend(), configure: configure)
  }

  @Test(
    "whatever the login contract calls its fields, the password and tokens never appear in the monitor's text or an error"
  )
  func contractValuesAreRedactedByValue() async throws {
    let (container, lines) = Self.app {
      $0.authContract = TerseAuthContract()
    }

    _ = try await container.session.logIn(username: "demo", password: Self.password)
    // The token has expired: the request waits for a refresh, which the server refuses by echo.
    let failure = await #expect(throws: NetworkError.self) {
      try await container.authenticatedClient.send(
        Endpoint<NoContent>(path: ["todos"], requiresAuthentication: true))
    }
    await container.session.logOut()

    let text = lines.withLock { $0.joined(separator: "\n") } + "\n" + String(describing: failure)
    #expect(text.contains("POST") && text.contains("/refresh") && text.contains("/logout"), "\(text)")
    for secret in [Self.password, Self.access, Self.refresh] {
      #expect(!text.contains(secret), "\(secret) appeared in: \(text)")
    }
  }

  @Test("a sign-in in steps lists the password among the credentials of each, whatever a step calls it")
  func loginStepsAreRedactedByValue() async throws {
    let (container, lines) = Self.app {
      $0.authContract = TerseStepsAuthContract()
    }
    // The server refuses the first step, echoing its body into the error.
    await #expect(throws: DomainError.self) {
      try await container.session.logIn(username: "demo", password: Self.password)
    }

    let text = lines.withLock { $0.joined(separator: "\n") }
    #expect(text.contains("/check") && text.contains("400"), "\(text)")
    #expect(!text.contains(Self.password), "\(text)")
  }

  /// Adds the keys a backend wants on every request, as an app's interceptor does.
  private struct KeyInterceptor: RequestInterceptor {
    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      var request = request
      request.setValue("anon-6b2e9d-key", forHTTPHeaderField: "apikey")
      request.setValue("sub-3f8c1a-key", forHTTPHeaderField: "Ocp-Apim-Subscription-Key")
      request.setValue("tenant-5a7d2c", forHTTPHeaderField: "X-Tenant-Ref")
      return request
    }
  }

  @Test(
    "secrets an app's interceptor adds never appear in the monitor's text or an error, named as credentials by rule or by the app"
  )
  func interceptorKeysAreRedacted() async throws {
    let (container, lines) = Self.app {
      $0.interceptors = [KeyInterceptor()]
      $0.credentialHeaders = ["X-Tenant-Ref"]
    }
    // The server echoes every header it got into its error body.
    let failure = await #expect(throws: NetworkError.self) {
      try await container.authenticatedClient.send(Endpoint<NoContent>(method: .post, path: ["grants"]))
    }

    let text = lines.withLock { $0.joined(separator: "\n") } + "\n" + String(describing: failure)
    #expect(text.contains("POST") && text.contains("/grants"), "\(text)")
    #expect(!text.contains("anon-6b2e9d-key"), "\(text)")
    #expect(!text.contains("sub-3f8c1a-key"), "\(text)")
    #expect(!text.contains("tenant-5a7d2c"), "\(text)")
  }

  @Test(
    "an app's own credential field, query and header names are redacted in the monitor's text and error excerpts"
  )
  func appCredentialNamesAreRedacted() async throws {
    let (container, lines) = Self.app {
      $0.credentialNames = ["layered_test_grant"]
      $0.credentialHeaders = ["X-Layered-Test-Session"]
    }
    struct Grant: Encodable, Sendable {
      var layeredTestGrant = "grant-8e2b7d"
      var note = "hello"
    }
    // Each value goes out once under the app's name, and is echoed back under another.
    var endpoint = Endpoint<NoContent>(method: .post, path: ["grants"], body: .json(Grant()))
    endpoint.headers = ["X-Layered-Test-Session": "session-4c7f1a"]
    endpoint.query = [URLQueryItem(name: "layered-test-grant", value: "query-9d3e1b")]
    let failure = await #expect(throws: NetworkError.self) {
      try await container.authenticatedClient.send(endpoint)
    }

    let text = lines.withLock { $0.joined(separator: "\n") } + "\n" + String(describing: failure)
    #expect(text.contains("hello"), "the rest of the body is still shown: \(text)")
    #expect(!text.contains("grant-8e2b7d"), "\(text)")
    #expect(!text.contains("session-4c7f1a"), "\(text)")
    #expect(!text.contains("query-9d3e1b"), "\(text)")
  }
}
