import DomainLayer
import PresentationLayer

extension Scenario {
  /// Seed scenario 3.
  static let todoListRecovers = Scenario(
    name: "todos-recover",
    title: "The todo list shows loadFailed on failure and the list on the next refresh"
  ) { stage in
    stage.step("sign in", through: "LoginViewModel → LogIn → RemoteSessionRepository → POST /auth/login")
    await stage.signIn()

    let todoList = stage.container.makeTodoListViewModel()
    let path =
      "TodoListViewModel → ObserveTodos → RemoteTodoRepository.todos → URLSessionHTTPClient → GET /todos"
    stage.step("the server fails three times in a row; pull to refresh", through: path)
    try await stage.control.inject(["path": "/todos", "status": 503, "count": 3])
    await todoList.sendAndWait(.refresh)
    stage.show("state", todoList.state)
    stage.expect(
      todoList.state.phase == .loadFailed(message: DomainError.server(status: 503).message),
      "the screen shows loadFailed with a readable message"
    )

    stage.step("pull to refresh again", through: path)
    await todoList.sendAndWait(.refresh)
    stage.show("state", todoList.state)
    stage.expect(todoList.state.phase == .loaded && todoList.state.todos.count == 200, "the list is shown")
  }
}
