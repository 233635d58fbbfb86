import DomainLayer
import PresentationLayer
import Testing

/// Reducers are pure functions: a state and a side effect in, a state out, nothing else.
@Suite("Reducers")
struct ReducerTests {
  private static func reduced<F: Feature>(_: F.Type, _ state: F.State, _ effects: F.SideEffect...) -> F.State
  {
    var state = state
    for effect in effects { F.reduce(&state, effect) }
    return state
  }

  private static var todos: TodoListState {
    var state = TodoListState()
    state.todos = Fixtures.todos
    return state
  }

  @Test("a toggle flips its row; each refused toggle undoes only its own flip")
  func toggleFlipsAndUndoes() {
    let twice = Self.reduced(TodoListFeature.self, Self.todos, .toggleStarted(id: 1), .toggleStarted(id: 1))
    #expect(twice.todos[0].isCompleted == false)
    #expect(twice.togglesInFlight == [1: 2])
    let refused = Self.reduced(
      TodoListFeature.self, twice, .toggleFailed(id: 1, message: "no"), .toggleFailed(id: 1, message: "no"))
    #expect(refused.todos == Fixtures.todos)
    #expect(refused.togglesInFlight.isEmpty)
    #expect(refused.message == "no")
  }

  @Test("a fresh list shows the server's rows with the flips of toggles still in flight on top")
  func listKeepsTogglesInFlight() throws {
    let toggling = Self.reduced(TodoListFeature.self, Self.todos, .toggleStarted(id: 1))
    let fromServer = Self.reduced(
      TodoListFeature.self, toggling, .listReceived(Fixtures.todos, isFresh: true))
    #expect(fromServer.todos[0].isCompleted == true, "toggle 1 is still in flight")
    #expect(fromServer.todos[1] == Fixtures.todos[1])
    #expect(fromServer.phase == .loaded)
  }

  @Test(
    "a created todo that a refresh already brought replaces its row rather than showing twice; a list holding one id twice shows the first"
  )
  func eachTodoShowsOnce() throws {
    let created = try Todo(id: 3, userID: 1, title: "todo 3, as created", isCompleted: false)
    let refreshedFirst = Self.reduced(
      TodoListFeature.self, Self.todos, .createStarted, .created(created, sentTitle: created.title))
    #expect(refreshedFirst.todos.map(\.id) == [1, 2, 3])
    #expect(refreshedFirst.todos.last == created)

    let twice = Self.reduced(
      TodoListFeature.self, TodoListState(), .listReceived(Fixtures.todos + [created], isFresh: true))
    #expect(twice.todos == Fixtures.todos)
  }

  @Test(
    "a created todo keeps the flip of a toggle still in flight, whether it replaces its row or joins the list, so a refused toggle leaves the row as the server has it"
  )
  func createdRowKeepsToggleInFlight() throws {
    // The refresh brought todo 3 before its create answered, and the user toggled it meanwhile.
    let created = try Todo(id: 3, userID: 1, title: "todo 3", isCompleted: false)
    let toggling = Self.reduced(TodoListFeature.self, Self.todos, .createStarted, .toggleStarted(id: 3))
    let answered = Self.reduced(TodoListFeature.self, toggling, .created(created, sentTitle: created.title))
    #expect(answered.todos.last?.isCompleted == true, "toggle 3 is still in flight")
    let refused = Self.reduced(TodoListFeature.self, answered, .toggleFailed(id: 3, message: "no"))
    #expect(refused.todos.last == created)

    // A later list without it, then the create's answer: the row comes back with the flip on top.
    let dropped = Self.reduced(
      TodoListFeature.self, toggling, .listReceived(Array(Fixtures.todos.prefix(2)), isFresh: true),
      .created(created, sentTitle: created.title))
    #expect(dropped.todos.last?.isCompleted == true, "toggle 3 is still in flight")
    #expect(
      Self.reduced(TodoListFeature.self, dropped, .toggleFailed(id: 3, message: "no")).todos.last == created)
  }

  @Test(
    "a list read before a toggle's or a create's answer, which arrives after it, keeps what they answered; a later load's list is shown as it is"
  )
  func listReadBeforeAnswersKeepsThem() throws {
    // A refresh goes out; the server stores a toggle of todo 1 and a new todo 4, then answers the
    // refresh with the list it read before them.
    let stale = Fixtures.todos
    let toggled = try Todo(id: 1, userID: 1, title: "todo 1", isCompleted: true)
    let created = try Todo(id: 4, userID: 1, title: "todo 4", isCompleted: false)
    let answered = Self.reduced(
      TodoListFeature.self, Self.todos, .loadStarted, .toggleStarted(id: 1), .toggleConfirmed(toggled),
      .createStarted, .created(created, sentTitle: created.title))
    let loaded = Self.reduced(TodoListFeature.self, answered, .listReceived(stale, isFresh: true))
    #expect(loaded.todos == [toggled] + stale.dropFirst() + [created])
    #expect(loaded.phase == .loaded)

    // The next load began after those answers: another device has since undone the toggle.
    let next = Self.reduced(TodoListFeature.self, loaded, .loadStarted, .listReceived(stale, isFresh: true))
    #expect(next.todos == stale)
    // And an answer while no load is under way is kept for none.
    #expect(
      Self.reduced(TodoListFeature.self, loaded, .toggleStarted(id: 1), .toggleConfirmed(toggled))
        .answeredDuringLoad.isEmpty)
  }

  @Test("a create's answer that comes after a toggle of its todo was answered keeps the toggle's completion")
  func createAnswerAfterToggleKeepsIt() throws {
    // A refresh brought todo 4 before its create answered, and the user toggled it meanwhile.
    let brought = try Todo(id: 4, userID: 1, title: "todo 4", isCompleted: false)
    let toggled = try Todo(id: 4, userID: 1, title: "todo 4", isCompleted: true)
    let answered = Self.reduced(
      TodoListFeature.self, Self.todos, .createStarted,
      .listReceived(Fixtures.todos + [brought], isFresh: true), .toggleStarted(id: 4),
      .toggleConfirmed(toggled),
      .created(brought, sentTitle: brought.title))
    #expect(answered.todos.last == toggled)
  }

  @Test("the end of the session is recorded once: the second report changes nothing")
  func sessionEndIsIdempotent() {
    let ended = Self.reduced(TodoListFeature.self, TodoListState(), .sessionEnded)
    #expect(ended.hasSessionEnded)
    #expect(Self.reduced(TodoListFeature.self, ended, .sessionEnded) == ended)
  }

  @Test("a login clears the error when it starts and the password when it succeeds")
  func loginReducer() {
    var form = LoginFeature.State()
    form.username = "demo"
    form.password = "pw"
    form.errorMessage = "old"
    let started = Self.reduced(LoginFeature.self, form, .loginStarted)
    #expect(started.isLoggingIn && started.errorMessage == nil && !started.isLoginEnabled)
    let succeeded = Self.reduced(LoginFeature.self, started, .loginSucceeded)
    #expect(!succeeded.isLoggingIn && succeeded.password.isEmpty && succeeded.username == "demo")
    let failed = Self.reduced(
      LoginFeature.self, started, .loginFailed(message: "no", serverMessage: "No account."))
    #expect(failed.password == "pw" && failed.errorMessage == "no" && failed.isLoginEnabled)
    #expect(failed.serverMessage == "No account.")
    #expect(Self.reduced(LoginFeature.self, failed, .loginStarted).serverMessage == nil)
  }

  @Test("a failed article load shows the placeholder, a loaded one the article")
  func articleReducer() throws {
    let article = try #require(Fixtures.article)
    let loaded = Self.reduced(ArticleFeature.self, ArticleFeature.State(), .loadStarted, .loaded(article))
    #expect(loaded.article == article && !loaded.isLoading)
    let failed = Self.reduced(ArticleFeature.self, loaded, .loadStarted, .loadFailed)
    #expect(failed.article.isPlaceholder && !failed.isLoading)
  }
}
