import Foundation

extension SampleAPI {
  /// Dispatches a contract route. Unknown paths are 404; known paths with another method are 405.
  func route(_ request: InProcessRequest) -> InProcessResponse {
    let segments = request.pathSegments
    switch (segments.first, segments.count) {
    case ("todos", 1):
      return allow(request, ["GET", "POST"]) {
        authorize(request) ?? (request.method == "GET" ? listTodos(request) : createTodo(request))
      }
    case ("todos", 2):
      return allow(request, ["DELETE", "GET", "PATCH"]) {
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
      response.headers["Allow"] = methods.sorted().joined(separator: ", ")
      return response
    }
    return handler()
  }

  /// `nil` when the request may go on; a 401 response when it needs a valid bearer token.
  private func authorize(_ request: InProcessRequest) -> InProcessResponse? {
    let now = Date()
    return state.withLock { state in
      guard state.config.requireAuth else { return nil }
      guard let token = Self.bearerToken(in: request.header("Authorization")) else {
        return .unauthorized(challenge: "Bearer")
      }
      guard let expiry = state.accessTokens[token], now < expiry else {
        return .unauthorized(challenge: #"Bearer error="invalid_token""#)
      }
      return nil
    }
  }

  /// The token of an `Authorization: Bearer <token>` header; `nil` for any other scheme.
  private static func bearerToken(in header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
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

  private func todo(_ request: InProcessRequest, idText: String) -> InProcessResponse {
    guard idText.allSatisfy(\.isASCII) && idText.allSatisfy(\.isNumber), let id = Int(idText),
      let existing = state.withLock({ $0.todos[id] })
    else {
      return .error(404, "not found")
    }
    switch request.method {
    case "PATCH":
      var updated = existing
      do throws(JSONObjectReader.Rejection) {
        let body = try JSONObjectReader(request.body)
        updated.title = try body.title(required: false) ?? updated.title
        updated.completed = try body.boolean("completed") ?? updated.completed
        updated.userId = try body.integer("userId") ?? updated.userId
      } catch {
        return .error(error.status, error.message)
      }
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
