import Foundation

extension SampleAPI {
  /// The contract's routes. `scripts/sample_api.py` has the same table (its `api_routes`), and
  /// the contract tests check both against one list, route by route.
  var builtInRoutes: [SampleRoute] {
    [
      SampleRoute("GET", "/todos", authenticated: true) { self.listTodos($0.request) },
      SampleRoute("POST", "/todos", authenticated: true) { self.createTodo($0.request) },
      SampleRoute("GET", "/todos/{id}", authenticated: true) { self.getTodo($0) },
      SampleRoute("PATCH", "/todos/{id}", authenticated: true) { self.updateTodo($0) },
      SampleRoute("DELETE", "/todos/{id}", authenticated: true) { self.deleteTodo($0) },
      SampleRoute("GET", "/articles/today", authenticated: false) { _ in .json(200, SampleData.article) },
      SampleRoute("POST", "/auth/login", authenticated: false) { self.login($0.request) },
      SampleRoute("POST", "/auth/refresh", authenticated: false) { self.refresh($0.request) },
    ] + scaffoldedRoutes
  }

  /// The routes of the features `scripts/new-feature` wrote, after the built-in ones (the script
  /// adds one line per feature at the marker, and the same line to `scripts/sample_api.py`).
  private var scaffoldedRoutes: [SampleRoute] {
    let collections: [SampleCollection] = [
      // new-feature: routes
    ]
    return collections.flatMap(routes(for:))
  }

  private func listTodos(_ request: InProcessRequest) -> InProcessResponse {
    var userFilter: Int?
    var completedFilter: Bool?
    if let text = request.queryValue("userId") {
      guard let value = Int(text) else { return .error(400, "'userId' must be an integer") }
      userFilter = value
    }
    if let text = request.queryValue("completed") {
      guard let value = Bool(text) else { return .error(400, "'completed' must be true or false") }
      completedFilter = value
    }
    let todos = state.withLock { state in
      state.todos.values
        .filter { todo in userFilter.map { todo.userId == $0 } ?? true }
        .filter { todo in completedFilter.map { todo.completed == $0 } ?? true }
        .sorted { $0.id < $1.id }
    }
    return .json(200, todos)
  }

  private func createTodo(_ request: InProcessRequest) -> InProcessResponse {
    let input: (title: String, userId: Int?, completed: Bool?)
    do throws(JSONObjectReader.Rejection) {
      let body = try JSONObjectReader(request.body)
      input = (
        try body.title(required: true) ?? "", try body.integer("userId"), try body.boolean("completed")
      )
    } catch {
      return .error(error.status, error.message)
    }
    let todo = state.withLock { state in
      let todo = SampleTodo(
        userId: input.userId ?? 1,
        id: state.nextTodoID,
        title: input.title,
        completed: input.completed ?? false
      )
      state.nextTodoID += 1
      state.todos[todo.id] = todo
      return todo
    }
    return .json(201, todo)
  }

  private func getTodo(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let id = request.id(), let todo = state.withLock({ $0.todos[id] }) else {
      return .error(404, "not found")
    }
    return .json(200, todo)
  }

  /// An unknown id is reported before a bad body, as in the Python twin.
  private func updateTodo(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let id = request.id(), var updated = state.withLock({ $0.todos[id] }) else {
      return .error(404, "not found")
    }
    do throws(JSONObjectReader.Rejection) {
      let body = try JSONObjectReader(request.request.body)
      updated.title = try body.title(required: false) ?? updated.title
      updated.completed = try body.boolean("completed") ?? updated.completed
      updated.userId = try body.integer("userId") ?? updated.userId
    } catch {
      return .error(error.status, error.message)
    }
    state.withLock { $0.todos[id] = updated }
    return .json(200, updated)
  }

  private func deleteTodo(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let id = request.id(), state.withLock({ $0.todos.removeValue(forKey: id) }) != nil else {
      return .error(404, "not found")
    }
    return InProcessResponse(status: 204)
  }

  private func login(_ request: InProcessRequest) -> InProcessResponse {
    let username: String?
    let password: String?
    do throws(JSONObjectReader.Rejection) {
      let body = try JSONObjectReader(request.body)
      username = try body.string("username", required: true)
      password = try body.string("password", required: true)
    } catch {
      return .error(error.status, error.message)
    }
    guard username == SampleData.username, password == SampleData.password else {
      return .error(401, "invalid credentials")
    }
    let now = Date()
    return .json(200, state.withLock { $0.issueTokens(now: now) })
  }

  private func refresh(_ request: InProcessRequest) -> InProcessResponse {
    let refreshToken: String
    do throws(JSONObjectReader.Rejection) {
      refreshToken = try JSONObjectReader(request.body).string("refreshToken", required: true) ?? ""
    } catch {
      return .error(error.status, error.message)
    }
    let now = Date()
    let pair = state.withLock { state -> TokenPair? in
      guard state.refreshTokens.remove(refreshToken) != nil else { return nil }
      return state.issueTokens(now: now)
    }
    guard let pair else { return .error(401, "invalid refresh token") }
    return .json(200, pair)
  }
}
