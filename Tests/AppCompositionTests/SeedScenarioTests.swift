import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// The brief's seed scenarios, end to end: view model → use case → repository → client → the
/// sample API (in process, and over loopback for 1, 3, 5 and 6). Scenario 4 is in
/// `DataLayerTests/ThreeCallStylesTests`.
@Suite("Seed scenarios, end to end", .timeLimit(.minutes(2)))
@MainActor
struct SeedScenarioTests {
  @Test(
    "seed scenario 1: wrong password, then offline, then a 500; the next tap still logs in",
    arguments: SampleBackendKind.allCases
  )
  func loginSurvivesFailures(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      let login = app.container.makeLoginViewModel()
      let events = StreamRecorder(login.events)
      login.send(.usernameChanged("demo"))
      var messages: [String?] = []

      login.send(.passwordChanged("wrong"))
      await login.sendAndWait(.logInTapped)
      messages.append(login.state.errorMessage)

      login.send(.passwordChanged("correct-horse-battery-staple"))
      try await connection.setReachable(false)
      await login.sendAndWait(.logInTapped)
      messages.append(login.state.errorMessage)
      try await connection.setReachable(true)

      try await connection.inject(.init(path: "/auth/login", status: 500))
      await login.sendAndWait(.logInTapped)
      messages.append(login.state.errorMessage)

      await login.sendAndWait(.logInTapped)

      #expect(
        messages == [
          DomainError.invalidCredentials.message, DomainError.offline.message,
          DomainError.server(status: 500).message,
        ]
      )
      #expect(await events.waitForCount(1) == [.loggedIn(User(username: "demo"))])
      #expect(login.state.username == "demo", "nothing the user typed was lost on the way")
    }
  }

  @Test(
    "seed scenario 2: a failed article load shows the placeholder and an error event; the next appearance loads it"
  )
  func articlePlaceholder() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let app = AppHarness(connection)
      let article = app.container.makeArticleViewModel()
      let events = StreamRecorder(article.events)
      // Three failures: the first attempt and both retries of the retry policy.
      try await connection.inject(.init(path: "/articles/today", count: 3, status: 500))

      await article.sendAndWait(.appeared)
      #expect(article.state.article.isPlaceholder)
      #expect(await events.waitForCount(1) == [.loadFailed(message: DomainError.server(status: 500).message)])

      await article.sendAndWait(.appeared)
      #expect(article.state.article.title == "Streams that outlive their errors")
    }
  }

  @Test(
    "seed scenario 3: the todo list shows loadFailed on failure and the list on the next refresh",
    arguments: SampleBackendKind.allCases
  )
  func todoListRecovers(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let todoList = app.container.makeTodoListViewModel()
      try await connection.inject(.init(path: "/todos", count: 3, status: 503))

      await todoList.sendAndWait(.refresh)
      #expect(todoList.state.phase == .loadFailed(message: DomainError.server(status: 503).message))

      await todoList.sendAndWait(.refresh)
      #expect(todoList.state.phase == .loaded)
      #expect(todoList.state.todos.count == 200)
    }
  }

  @Test(
    "seed scenario 5: many screens get 401 at once, one refresh runs and all load; a rejected refresh ends the session for all",
    arguments: SampleBackendKind.allCases
  )
  func oneRefreshForAllRejected(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      let sessions = StreamRecorder(app.container.observeSession())
      await app.signIn()
      let screens = (0..<20).map { _ in app.container.makeTodoListViewModel() }

      // The server stops accepting the token the app still believes valid.
      try await connection.revokeAccessTokens()
      try await Self.refreshAllRejectedAtOnce(screens, connection: connection)
      #expect(screens.allSatisfy { $0.state.phase == .loaded })
      let firstRound = try await connection.counters()
      #expect(firstRound.refreshes == 1)
      #expect(
        firstRound.paths["GET /todos"] == 2 * screens.count, "each request got a 401 and was retried once")

      // Now the server refuses to renew: every screen fails with the same message, once.
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 401))
      try await connection.revokeAccessTokens()
      let events = screens.map { StreamRecorder($0.events) }
      try await Self.refreshAllRejectedAtOnce(screens, connection: connection)
      let expired = TodoListState.Phase.loadFailed(message: DomainError.sessionExpired.message)
      #expect(screens.allSatisfy { $0.state.phase == expired })
      let secondRound = try await connection.counters()
      #expect(secondRound.refreshes == 2)
      #expect(
        secondRound.paths["GET /todos"] == 3 * screens.count, "each request got a 401 and none was retried")
      #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
      for recorder in events {
        #expect(await recorder.waitForCount(1) == [.sessionEnded])
      }
    }
  }

  @Test(
    "many screens start with a token known to be expired: one refresh runs before they send and all load; a rejected refresh ends the session for all",
    arguments: SampleBackendKind.allCases
  )
  func oneRefreshForAll(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      let sessions = StreamRecorder(app.container.observeSession())
      try await connection.configure(tokenLifetime: 0)
      await app.signIn()
      try await connection.configure(tokenLifetime: 3600)

      let screens = (0..<20).map { _ in app.container.makeTodoListViewModel() }
      await Self.refreshAll(screens)
      #expect(screens.allSatisfy { $0.state.phase == .loaded })
      let firstRound = try await connection.counters().refreshes
      #expect(firstRound == 1)

      // Now the server refuses to renew: every screen fails with the same message, once.
      try await connection.configure(tokenLifetime: 0)
      await app.signIn()
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 401))
      let events = screens.map { StreamRecorder($0.events) }
      await Self.refreshAll(screens)
      let expired = TodoListState.Phase.loadFailed(message: DomainError.sessionExpired.message)
      #expect(screens.allSatisfy { $0.state.phase == expired })
      let secondRound = try await connection.counters().refreshes
      #expect(secondRound == 2)
      #expect(await sessions.waitUntil { $0.last == .expired }.last == .expired)
      for recorder in events {
        #expect(await recorder.waitForCount(1) == [.sessionEnded])
      }
    }
  }

  @Test(
    "seed scenario 6: a screen closed mid-request cancels the request and is released",
    arguments: SampleBackendKind.allCases
  )
  func closedScreenCancels(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      try await connection.inject(.init(path: "/todos", delay: 30))
      var screen: TodoListViewModel? = app.container.makeTodoListViewModel()
      weak let released = screen
      screen?.send(.refresh)
      try await app.waitForRequest("GET /todos")

      screen = nil

      #expect(released == nil, "in-flight work must not keep the view model alive")
      let counters = try await connection.counters(once: { $0.cancelled > 0 })
      #expect(counters.cancelled == 1, "the server saw the request go away")
    }
  }

  /// Sends `.refresh` to every screen at the same moment and waits for all of them.
  private static func refreshAll(_ screens: [TodoListViewModel]) async {
    await withTaskGroup(of: Void.self) { group in
      for screen in screens { group.addTask { await screen.sendAndWait(.refresh) } }
    }
  }

  /// Sends `.refresh` to every screen at the same moment, with each screen's first request held
  /// at the server for half a second before it is answered, and waits for all of them: every
  /// request has left with the token it read before the first answer comes back.
  private static func refreshAllRejectedAtOnce(
    _ screens: [TodoListViewModel], connection: SampleBackendConnection
  ) async throws {
    try await connection.inject(.init(path: "/todos", method: "GET", count: screens.count, delay: 0.5))
    await refreshAll(screens)
  }
}
