import AppComposition
import DomainLayer
import Foundation
import JWTTodos
import LayeredTestSupport
import NetworkLayer
import PresentationLayer
import SampleBackend
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app on one twin of the backend: the container built from the example's configuration,
/// and the server to check against.
private struct App {
  let backend: any TestBackend
  let container: AppContainer

  /// Runs `body` against a fresh backend of `kind`, stopped afterwards.
  @MainActor
  static func with(
    _ kind: BackendKind, accessLifetime: Double = 300, monitors: [any NetworkEventMonitor] = [],
    _ body: @MainActor (App) async throws -> Void
  ) async throws {
    let backend = try await kind.start(accessLifetime: accessLifetime)
    var configuration = AppConfiguration.jwtTodos(baseURL: backend.baseURL, transport: backend.transport)
    configuration.monitors = monitors
    let app = App(backend: backend, container: AppContainer(configuration: configuration))
    do {
      try await body(app)
    } catch {
      await backend.stop()
      throw error
    }
    await backend.stop()
  }

  func signIn() async throws {
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
  }

  func count(_ key: String) async throws -> Int {
    try await backend.count(key)
  }
}

@Suite(
  "A JWT backend of the app's own, through Layered's public seams, in process and over loopback",
  .timeLimit(.minutes(1)))
struct JWTTodosTests {
  @Test(
    "a 20-second token is read from its exp and used, not renewed before each request; no URL is redirected",
    arguments: BackendKind.allCases)
  @MainActor
  func shortTokenIsUsed(kind: BackendKind) async throws {
    try await App.with(kind, accessLifetime: 20) { app in
      try await app.signIn()
      let screen = app.container.makeJWTTodoPagesViewModel()
      for _ in 0..<4 { await screen.sendAndWait(.refreshTapped) }
      #expect(screen.state.items.count == 2)
      #expect(try await app.count("GET /api/todos/") == 4)
      #expect(try await app.count("POST /api/token/refresh/") == 0)
      let sent = try await app.backend.paths()
      #expect(
        sent.allSatisfy { $0.hasSuffix("/") }, "every request went to a URL with its slash: \(sent.sorted())")
    }
  }

  @Test(
    "an expired token is renewed first, and the next renewal sends the rotated refresh token",
    arguments: BackendKind.allCases)
  @MainActor
  func rotation(kind: BackendKind) async throws {
    try await App.with(kind, accessLifetime: -10) { app in
      try await app.signIn()
      try await app.backend.setAccessLifetime(300)
      let screen = app.container.makeJWTTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      try await app.backend.revokeAccessTokens()
      await screen.sendAndWait(.refreshTapped)

      #expect(screen.state.phase == .loaded)
      let received = try await app.backend.refreshTokensReceived()
      #expect(received.count == 2)
      #expect(Set(received).count == 2, "the second renewal sent the rotated token, not the blacklisted one")
      #expect(try await app.backend.blacklisted() == Set(received))
      #expect(try await app.count("POST /api/token/refresh/") == 2)
    }
  }

  @Test(
    "logging out blacklists the refresh token at the server, and nothing is sent for the user after",
    arguments: BackendKind.allCases)
  @MainActor
  func logout(kind: BackendKind) async throws {
    try await App.with(kind) { app in
      try await app.signIn()
      await app.container.session.logOut()
      #expect(try await app.count("POST /api/token/blacklist/") == 1)
      #expect(try await app.backend.blacklisted().count == 1)
      let screen = app.container.makeJWTTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      #expect(screen.state.phase == .loadFailed(message: DomainError.sessionExpired.message))
      #expect(try await app.count("GET /api/todos/") == 0)
    }
  }

  @Test(
    "the list arrives page by page, following the absolute next links, to its end",
    arguments: BackendKind.allCases)
  @MainActor
  func pages(kind: BackendKind) async throws {
    try await App.with(kind) { app in
      try await app.signIn()
      let screen = app.container.makeJWTTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      while !screen.state.hasReachedEnd { await screen.sendAndWait(.loadMoreTapped) }
      #expect(screen.state.items.map(\.id) == [1, 2, 3, 4, 5])
      #expect(try await app.count("GET /api/todos/") == 3)
    }
  }

  @Test(
    "a title the server refuses shows its complaint under the title, and what was typed stays",
    arguments: BackendKind.allCases)
  @MainActor
  func refusedTitle(kind: BackendKind) async throws {
    try await App.with(kind) { app in
      try await app.signIn()
      let screen = app.container.makeJWTTodoListViewModel()
      screen.send(.newTitleChanged("A title the server finds too long"))
      await screen.sendAndWait(.createTapped)
      #expect(screen.state.titleErrors == ["Ensure this field has no more than 20 characters."])
      #expect(screen.state.newTitle == "A title the server finds too long")
      #expect(try await app.count("POST /api/todos/") == 1)
    }
  }

  @Test(
    "someone else's todo is forbidden: asked once, never retried, and the row flips back",
    arguments: BackendKind.allCases)
  @MainActor
  func forbidden(kind: BackendKind) async throws {
    try await App.with(kind) { app in
      try await app.signIn()
      let screen = app.container.makeJWTTodoListViewModel()
      await screen.sendAndWait(.refresh)
      let before = screen.state.todos.first { $0.id == 5 }
      await screen.sendAndWait(.toggle(id: 5))
      #expect(screen.state.message == DomainError.forbidden.message)
      #expect(screen.state.todos.first { $0.id == 5 } == before)
      #expect(try await app.count("PATCH /api/todos/5/") == 1)
    }
  }

  @Test(
    "the server's own words for a refused login and a forbidden change reach the app, their types kept",
    arguments: BackendKind.allCases)
  @MainActor
  func serverSentences(kind: BackendKind) async throws {
    try await App.with(kind) { app in
      await #expect(
        throws: DomainError.invalidCredentials(
          serverMessage: "No active account found with the given credentials")
      ) {
        _ = try await app.container.session.logIn(username: "demo", password: "wrong")
      }
      try await app.signIn()
      let repository = RemoteJWTTodoRepository(client: app.container.authenticatedClient)
      await #expect(
        throws: DomainError.forbidden(serverMessage: "You do not have permission to perform this action.")
      ) {
        _ = try await repository.setCompleted(true, forTodoWithID: 5)
      }
    }
  }

  @Test(
    "no token, refresh token or password of the session ever appears in the monitor's text",
    arguments: BackendKind.allCases)
  @MainActor
  func nothingSecretIsLogged(kind: BackendKind) async throws {
    let lines = Mutex<[String]>([])
    let monitor = ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }
    try await App.with(kind, accessLifetime: -10, monitors: [monitor]) { app in
      try await app.signIn()
      try await app.backend.setAccessLifetime(300)
      let screen = app.container.makeJWTTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      await app.container.session.logOut()

      let text = lines.withLock { $0.joined(separator: "\n") }
      #expect(text.contains("/api/token/refresh/") && text.contains("/api/token/blacklist/"), "\(text)")
      #expect(!text.contains("eyJhbGci"), "an access token appeared: \(text)")
      #expect(!text.contains("refresh-"), "a refresh token appeared: \(text)")
      #expect(!text.contains("correct-horse"), "the password appeared: \(text)")
    }
  }
}

/// A server that ignores the page asked for: every answer is the first page, with a `next` one
/// further on, as a backend whose paging parameter was renamed answers.
private final class PageIgnoringServer: HTTPTransport {
  private let answered = Mutex(0)

  var requests: Int { answered.withLock { $0 } }

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let page = answered.withLock {
      $0 += 1
      return $0
    }
    let todos = [
      #"{"id":1,"title":"One","completed":false,"owner_id":1}"#,
      #"{"id":2,"title":"Two","completed":true,"owner_id":1}"#,
    ].joined(separator: ",")
    let next = "http://api.test/api/todos/?page=\(page + 1)"
    let body = #"{"count":4,"next":"\#(next)","previous":null,"results":[\#(todos)]}"#
    guard let url = request.url,
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"]
      )
    else { throw .invalidResponse }
    return (Data(body.utf8), response)
  }
}

@Suite("The example's own loop over every page", .timeLimit(.minutes(1)))
struct JWTTodosPagingTests {
  @Test("a server that answers every page with the first ends the loop at the first repeat")
  func repeatedPageEndsTheLoop() async throws {
    let server = PageIgnoringServer()
    let baseURL = try #require(URL(string: "http://api.test"))
    let client = URLSessionHTTPClient(baseURL: baseURL, transport: server)
    let repository = RemoteJWTTodoRepository(client: client)
    let todos = try await repository.todos()
    #expect(todos.map(\.id) == [1, 2])
    #expect(server.requests == 2)
  }
}
