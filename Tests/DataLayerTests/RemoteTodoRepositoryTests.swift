import DataLayer
import DomainLayer
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("RemoteTodoRepository")
struct RemoteTodoRepositoryTests {
  @Test("loads the sample API's 200 todos as entities, signed in", arguments: SampleBackendKind.allCases)
  func loads(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      let todos = try await Result.of { () async throws(DomainError) in try await stack.todos.todos() }.get()
      #expect(todos.count == 200)
      #expect(Set(todos.map(\.userID)) == Set(1...10))
      #expect(stack.todos.cachedTodos() == todos, "a successful load fills the cache")
    }
  }

  @Test("without signing in, loading fails as an expired session without a request")
  func signedOut() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      let result = await Result.of { () async throws(DomainError) in try await stack.todos.todos() }
      #expect(result == .failure(.sessionExpired))
      let counters = try await connection.counters()
      #expect(counters.requests == 0)
    }
  }

  @Test("a server error surfaces as a domain server error and leaves the cache alone")
  func serverError() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      _ = await Result.of { () async throws(DomainError) in try await stack.todos.todos() }
      // 501 is not one the stack's RetryPolicy retries, so the first answer is the outcome.
      try await connection.inject(.init(path: "/todos", status: 501))
      let result = await Result.of { () async throws(DomainError) in try await stack.todos.todos() }
      #expect(result == .failure(.server(status: 501)))
      #expect(stack.todos.cachedTodos()?.count == 200)
    }
  }

  @Test(
    "a load and a create answered after a sign-out reach their caller, and the cache stays empty",
    arguments: ["GET", "POST"])
  func lateAnswerAfterSignOut(method: String) async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      try await connection.inject(.init(path: "/todos", method: method, delay: 600))
      let call = Task { () async throws(DomainError) -> Int in
        method == "GET"
          ? try await stack.todos.todos().count
          : try await stack.todos.createTodo(title: "written just before signing out").id
      }
      _ = try await connection.counters(once: { $0.paths["\(method) /todos", default: 0] == 1 })

      await stack.sessions.logOut()
      #expect(try await connection.releaseDelays() == 1)

      #expect(try await call.value > 0, "the caller gets its answer")
      #expect(stack.todos.cachedTodos() == nil, "nothing of the signed-out user is cached")
    }
  }

  @Test("a toggle answered after a sign-out and a new sign-in leaves the new session's list as it loaded")
  func lateToggleAfterNewSignIn() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      try await connection.inject(.init(path: "/todos/1", method: "PATCH", delay: 600))
      let toggle = Task { () async throws(DomainError) -> Todo in
        try await stack.todos.setCompleted(true, forTodoWithID: 1)
      }
      _ = try await connection.counters(once: { $0.paths["PATCH /todos/1", default: 0] == 1 })

      await stack.sessions.logOut()
      try await stack.signIn()
      let loaded = try await Result.of { () async throws(DomainError) in try await stack.todos.todos() }.get()
      #expect(try await connection.releaseDelays() == 1)

      #expect(try await toggle.value.isCompleted, "the caller gets its answer")
      #expect(loaded.first?.isCompleted == false)
      #expect(stack.todos.cachedTodos() == loaded, "the signed-out session's answer changes nothing cached")
    }
  }

  @Test("creating and toggling write through to the server and the cache")
  func createAndToggle() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      _ = await Result.of { () async throws(DomainError) in try await stack.todos.todos() }
      let created = try await Result.of { () async throws(DomainError) in
        try await stack.todos.createTodo(title: "water the plants")
      }.get()
      #expect(created.id == 201)
      let toggled = try await Result.of { () async throws(DomainError) in
        try await stack.todos.setCompleted(true, forTodoWithID: 201)
      }.get()
      #expect(toggled.isCompleted)
      #expect(stack.todos.cachedTodos()?.last == toggled)
    }
  }

  @Test("one invalid todo in the list fails the load as invalid data instead of crashing")
  func invalidTodo() async {
    let mount = StubHandler.transport(
      status: 200,
      body:
        #"[{"userId":1,"id":1,"title":"ok","completed":false},{"userId":1,"id":2,"title":"","completed":false}]"#
    )
    let repository = RemoteTodoRepository(
      client: URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    )
    guard
      case .failure(.invalidData) = await Result.of({ () async throws(DomainError) in
        try await repository.todos()
      })
    else {
      Issue.record("expected invalid data")
      return
    }
  }
}
