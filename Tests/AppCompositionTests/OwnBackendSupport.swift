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

/// What the suites of an app's own backends share: a container on the backend, its answers, and
/// the checks of a refused login.
extension AppContainer {
  /// A container whose requests `backend` answers in process, configured by `configure` (the
  /// backend's login contract, say).
  static func serving(
    _ backend: some InProcessHandler, configure: (inout AppConfiguration) -> Void
  ) -> AppContainer {
    let transport = InProcessTransport(backend)
    var configuration = AppConfiguration(baseURL: transport.baseURL, transport: transport)
    configure(&configuration)
    return AppContainer(configuration: configuration)
  }

  /// A container as ``serving(_:configure:)`` builds it, and the lines of its verbose console
  /// log, which is where a secret must never appear.
  static func servingWithLog(
    _ backend: some InProcessHandler, configure: (inout AppConfiguration) -> Void
  ) -> (container: AppContainer, log: Locked<[String]>) {
    servingWithLog(api: InProcessTransport(backend), configure: configure)
  }

  /// A container for the API `api`, with `others` (the auth servers its login contract sends
  /// to) each on a host of its own, configured by `configure`, and the lines of its verbose
  /// console log.
  static func servingWithLog(
    api: InProcessTransport, beside others: InProcessTransport..., configure: (inout AppConfiguration) -> Void
  ) -> (container: AppContainer, log: Locked<[String]>) {
    let log = Locked<[String]>([])
    let transport: any HTTPTransport = others.isEmpty ? api : InProcessHosts([api] + others)
    var configuration = AppConfiguration(baseURL: api.baseURL, transport: transport)
    configuration.monitors = [
      ConsoleEventMonitor(verbose: true) { line in log.withLock { $0.append(line) } }
    ]
    configure(&configuration)
    return (AppContainer(configuration: configuration), log)
  }

  /// One whole session on `backend` under `contract`: signs in with the right password, sends
  /// `endpoint` once, signs out. Returns the expiry the session held and the verbose log's text.
  static func wholeSession(
    on backend: some InProcessHandler, contract: some AuthContract, sending endpoint: Endpoint<[String]>
  ) async throws -> (expiresAt: Date?, log: String) {
    let store = InMemoryTokenStore()
    let (container, lines) = servingWithLog(backend) {
      $0.authContract = contract
      $0.tokenStore = store
    }
    _ = try await container.session.logIn(
      username: "demo@example.com", password: "correct-horse-battery-staple")
    _ = try await container.authenticatedClient.send(endpoint)
    let expiresAt = store.tokens?.expiresAt
    await container.session.logOut()
    return (expiresAt, lines.withLock { $0.joined(separator: "\n") })
  }

  /// Types `username` and a wrong password into a new login screen, taps log in, and checks what
  /// a refused login must show: the screen's own words, the server's sentence as `serverMessage`,
  /// and both fields as the user typed them.
  @MainActor
  func expectRefusedLogin(
    username: String = "demo", serverMessage: String?, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let login = makeLoginViewModel()
    login.send(.usernameChanged(username))
    login.send(.passwordChanged("wrong"))
    await login.sendAndWait(.logInTapped)
    #expect(
      login.state.errorMessage == DomainError.invalidCredentials.message, sourceLocation: sourceLocation)
    #expect(login.state.serverMessage == serverMessage, sourceLocation: sourceLocation)
    #expect(
      login.state.username == username && login.state.password == "wrong", "nothing the user typed is lost",
      sourceLocation: sourceLocation)
  }
}

/// The answer of an OAuth token endpoint (RFC 6749, section 5.1), which the backends that follow
/// OAuth give for a login and a renewal alike; a renewal may leave out the refresh token.
struct OAuthTokenAnswer: Decodable, Sendable {
  var accessToken: String
  var refreshToken: String?
  var expiresIn: Double

  enum CodingKeys: String, CodingKey {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case expiresIn = "expires_in"
  }

  /// The answer as the session's tokens.
  var issued: IssuedTokens {
    IssuedTokens(accessToken: accessToken, refreshToken: refreshToken, expiry: .after(seconds: expiresIn))
  }
}

/// The tokens a test backend has issued and still accepts, each numbered and unique.
struct IssuedTokenSets {
  var access: Set<String> = []
  var refresh: Set<String> = []
  private var count = 0

  /// A new access token and a new refresh token, both accepted from now on.
  mutating func issuePair() -> (access: String, refresh: String) {
    let access = issueAccess()
    let refresh = "refresh-\(count)-\(UUID().uuidString)"
    self.refresh.insert(refresh)
    return (access, refresh)
  }

  /// A new access token, accepted from now on.
  mutating func issueAccess() -> String {
    count += 1
    let access = "access-\(count)-\(UUID().uuidString)"
    self.access.insert(access)
    return access
  }
}

extension InProcessRequest {
  /// The token after `Bearer ` in the request's `Authorization` header, as a server reads it;
  /// `nil` without one.
  var bearerToken: String? {
    header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst("Bearer ".count)) : nil }
  }

  /// The value of the cookie named `name` in the request's `Cookie` header, as a server reads it.
  func cookie(named name: String) -> String? {
    header("Cookie").flatMap { cookieValue(named: name, in: $0) }
  }

  /// The body as a JSON object of texts, as a backend reads a login's or a refresh's fields; empty
  /// when it is not one.
  var jsonFields: [String: String] {
    (try? JSONDecoder().decode([String: String].self, from: body)) ?? [:]
  }

  /// The body's form fields by name, as `form` reads them; the last of two with one name.
  var formFields: [String: String] {
    Dictionary(form.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
  }
}

/// The value of the cookie named `name` in `cookies`, the `name=value; …` pairs of a `Cookie`
/// header: what a server reads of a request, and what an app's interceptor reads of its own.
func cookieValue(named name: String, in cookies: String) -> String? {
  cookies.split(separator: ";").lazy
    .map { $0.trimmingCharacters(in: .whitespaces) }
    .first { $0.hasPrefix(name + "=") }
    .map { String($0.dropFirst(name.count + 1)) }
}

extension InProcessReply {
  /// An answer whose body is this JSON text, byte for byte, as a backend of its own writes it.
  static func json(_ status: Int, text: String) -> InProcessReply {
    .respond(
      InProcessResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8)))
  }
}

/// In-process servers behind one transport, each on a host of its own, as the network routes
/// them: an API and the auth servers its login contract sends to.
struct InProcessHosts: HTTPTransport {
  let hosts: [InProcessTransport]

  init(_ hosts: InProcessTransport...) {
    self.init(hosts)
  }

  init(_ hosts: [InProcessTransport]) {
    self.hosts = hosts
  }

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    guard let host = hosts.first(where: { $0.baseURL.host == request.url?.host }) else {
      throw .transport(code: URLError.cannotFindHost.rawValue)
    }
    return try await host.send(request)
  }
}
