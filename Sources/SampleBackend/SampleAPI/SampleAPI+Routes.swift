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
    let search = TitleSearch(request)
    let todos = state.withLock { state in
      state.todos.values
        .filter { todo in userFilter.map { todo.userId == $0 } ?? true }
        .filter { todo in completedFilter.map { todo.completed == $0 } ?? true }
        .filter { todo in search.admits(todo.title) }
        .sorted { $0.id < $1.id }
    }
    // The links keep the filters, in the order the contract gives, so both servers write them alike.
    let filters =
      [("userId", userFilter.map(String.init)), ("completed", completedFilter.map(String.init))]
      .compactMap { name, value in value.map { "\(name)=\($0)&" } }.joined() + search.linkFilter
    return paged(todos, for: request, at: "/todos?" + filters) ?? .json(200, todos)
  }

  /// One page of `items` with links to its neighbours, `{count, next, previous, results}`, when
  /// `request` asks for pages (`page`, from 1, or `pageSize`, 1–100, default 20); a 400 for a bad
  /// value; `nil` when it does not ask, for the whole list. `link` is the list's path and query so
  /// far, ending with `?` or `&`.
  func paged<Item: Encodable>(_ items: [Item], for request: InProcessRequest, at link: String)
    -> InProcessResponse?
  {
    guard request.queryValue("page") != nil || request.queryValue("pageSize") != nil else { return nil }
    guard let page = Int(request.queryValue("page") ?? "1"), page >= 1 else {
      return .error(400, "'page' must be a positive integer")
    }
    guard let size = Int(request.queryValue("pageSize") ?? "20"), (1...100).contains(size) else {
      return .error(400, "'pageSize' must be an integer from 1 to 100")
    }
    let url = { (page: Int) in "\(link)page=\(page)&pageSize=\(size)" }
    // Past the end without multiplying: a page number near Int.max must not overflow.
    let start = page - 1 > items.count / size ? items.count : min((page - 1) * size, items.count)
    let results = Array(items[start..<min(start + size, items.count)])
    return .json(
      200,
      ItemPage(
        count: items.count, next: start + size < items.count ? url(page + 1) : nil,
        previous: page > 1 ? url(page - 1) : nil, results: results))
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

/// One page of a list: `{"count", "next", "previous", "results"}`, the links relative to the
/// server.
private struct ItemPage<Item: Encodable>: Encodable {
  var count: Int
  var next: String?
  var previous: String?
  var results: [Item]

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(count, forKey: .count)
    // Written as null, not left out, as the contract says.
    try container.encode(next, forKey: .next)
    try container.encode(previous, forKey: .previous)
    try container.encode(results, forKey: .results)
  }

  private enum CodingKeys: String, CodingKey {
    case count, next, previous, results
  }
}
