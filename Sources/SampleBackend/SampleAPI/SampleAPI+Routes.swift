import Foundation

extension SampleAPI {
  /// Dispatches a contract route. Unknown paths are 404; known paths with another method are 405.
  func route(_ request: InProcessRequest) -> InProcessResponse {
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    switch (segments.first, segments.count) {
    case ("todos", 1):
      return allow(request, ["GET", "POST"]) {
        authorize(request) ?? (request.method == "GET" ? listTodos(request) : createTodo(request))
      }
    case ("todos", 2):
      return allow(request, ["GET", "PATCH", "DELETE"]) {
        authorize(request) ?? todo(request, idText: segments[1])
      }
    case ("articles", 2) where segments[1] == "today":
      return allow(request, ["GET"]) { .json(200, SampleData.article) }
    case ("auth", 2) where segments[1] == "login":
      return allow(request, ["POST"]) { login(request) }
    case ("auth", 2) where segments[1] == "refresh":
      return allow(request, ["POST"]) { refresh(request) }
    default:
      return .error(404, "not found")
    }
  }

  private func allow(
    _ request: InProcessRequest,
    _ methods: [String],
    _ handler: () -> InProcessResponse
  ) -> InProcessResponse {
    guard methods.contains(request.method) else {
      var response = InProcessResponse.error(405, "method not allowed")
      response.headers["Allow"] = methods.joined(separator: ", ")
      return response
    }
    return handler()
  }

  /// `nil` when the request may go on; a 401 response when it needs a valid bearer token.
  private func authorize(_ request: InProcessRequest) -> InProcessResponse? {
    let now = Date()
    return state.withLock { state in
      guard state.config.requireAuth else { return nil }
      let header = request.header("Authorization") ?? ""
      guard header.hasPrefix("Bearer ") else {
        return .unauthorized(challenge: "Bearer")
      }
      let token = String(header.dropFirst("Bearer ".count))
      guard let expiry = state.accessTokens[token], now < expiry else {
        return .unauthorized(challenge: #"Bearer error="invalid_token""#)
      }
      return nil
    }
  }

  private func listTodos(_ request: InProcessRequest) -> InProcessResponse {
    var userFilter: Int?
    var completedFilter: Bool?
    if let text = request.queryValue("userId") {
      guard let value = Int(text) else { return .error(400, "userId must be an integer") }
      userFilter = value
    }
    if let text = request.queryValue("completed") {
      guard let value = Bool(text) else { return .error(400, "completed must be true or false") }
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
    guard let input = try? JSONDecoder().decode(TodoInput.self, from: request.body) else {
      return .error(400, "body must be a JSON object with a string title")
    }
    guard let title = input.title, !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
      return .error(400, "title is required")
    }
    let todo = state.withLock { state in
      let todo = SampleTodo(
        userId: input.userId ?? 1,
        id: state.nextTodoID,
        title: title,
        completed: input.completed ?? false
      )
      state.nextTodoID += 1
      state.todos[todo.id] = todo
      return todo
    }
    return .json(201, todo)
  }

  private func todo(_ request: InProcessRequest, idText: String) -> InProcessResponse {
    guard let id = Int(idText), let existing = state.withLock({ $0.todos[id] }) else {
      return .error(404, "not found")
    }
    switch request.method {
    case "PATCH":
      guard let input = try? JSONDecoder().decode(TodoInput.self, from: request.body) else {
        return .error(400, "body must be a JSON object")
      }
      if let title = input.title, title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        return .error(400, "title must not be empty")
      }
      var updated = existing
      updated.title = input.title ?? updated.title
      updated.completed = input.completed ?? updated.completed
      updated.userId = input.userId ?? updated.userId
      state.withLock { $0.todos[id] = updated }
      return .json(200, updated)
    case "DELETE":
      state.withLock { _ = $0.todos.removeValue(forKey: id) }
      return InProcessResponse(status: 204)
    default:
      return .json(200, existing)
    }
  }

  private func login(_ request: InProcessRequest) -> InProcessResponse {
    state.withLock { $0.counters.logins += 1 }
    guard let input = try? JSONDecoder().decode(LoginInput.self, from: request.body) else {
      return .error(400, "body must be a JSON object with username and password")
    }
    guard input.username == SampleData.username, input.password == SampleData.password else {
      return .error(401, "invalid credentials")
    }
    let now = Date()
    return .json(200, state.withLock { $0.issueTokens(now: now) })
  }

  private func refresh(_ request: InProcessRequest) -> InProcessResponse {
    state.withLock { $0.counters.refreshes += 1 }
    guard let input = try? JSONDecoder().decode(RefreshInput.self, from: request.body) else {
      return .error(400, "body must be a JSON object with refreshToken")
    }
    let now = Date()
    let pair = state.withLock { state -> TokenPair? in
      guard state.refreshTokens.remove(input.refreshToken) != nil else { return nil }
      return state.issueTokens(now: now)
    }
    guard let pair else { return .error(401, "invalid refresh token") }
    return .json(200, pair)
  }
}

private struct TodoInput: Decodable {
  var title: String?
  var userId: Int?
  var completed: Bool?
}

private struct LoginInput: Decodable {
  var username: String
  var password: String
}

private struct RefreshInput: Decodable {
  var refreshToken: String
}
