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

  @Test(
    "a list the server read before a toggle and a create, answered after them, keeps what they answered, in the cache the next start reads"
  )
  func listReadBeforeChanges() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let held = HeldAnswers(connection.transport, holding: "GET /todos")
      let cache = FileTodoCache(fileURL: directory.file("todos.json"))
      let repository = RemoteTodoRepository(client: stack.client(over: held), cache: cache)

      let load = Task { () async throws(DomainError) -> [Todo] in try await repository.todos() }
      await held.answerArrived()
      let toggled = try await Result.of { () async throws(DomainError) in
        try await repository.setCompleted(true, forTodoWithID: 1)
      }.get()
      let created = try await Result.of { () async throws(DomainError) in
        try await repository.createTodo(title: "Milk")
      }.get()
      held.release()
      let loaded = try await load.value
      await cache.flush()

      let server = try await Result.of { () async throws(DomainError) in try await stack.todos.todos() }.get()
      #expect(server.first == toggled && server.last == created, "the server stored both")
      let nextStart = FileTodoCache(fileURL: directory.file("todos.json")).load() ?? []
      for list in [loaded, nextStart] {
        #expect(list.first == toggled && list.last == created && list.count == server.count)
      }
    }
  }

  @Test(
    "a create answered after a load brought its todo and a toggle of it was answered leaves the toggled todo in the cache"
  )
  func lateCreateAfterToggle() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      let held = HeldAnswers(connection.transport, holding: "POST /todos")
      let repository = RemoteTodoRepository(client: stack.client(over: held), cache: InMemoryTodoCache())

      let create = Task { () async throws(DomainError) -> Todo in
        try await repository.createTodo(title: "Milk")
      }
      await held.answerArrived()
      let listed = try await Result.of { () async throws(DomainError) in try await repository.todos() }.get()
      let id = try #require(listed.last?.id)
      let toggled = try await Result.of { () async throws(DomainError) in
        try await repository.setCompleted(true, forTodoWithID: id)
      }.get()
      held.release()
      _ = try await create.value

      let server = try await Result.of { () async throws(DomainError) in try await stack.todos.todos() }.get()
      #expect(server.last == toggled, "the server kept the toggle")
      #expect(repository.cachedTodos()?.last == toggled)
      #expect(repository.cachedTodos()?.count == server.count)
    }
  }

  @Test(
    "loads, toggles and creates answered in any order leave the cache as the server has the list",
    arguments: 0..<50
  )
  func answersInAnyOrder(seed: UInt64) async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await stack.signIn()
      let late = LateAnswers(connection.transport, seed: seed)
      let repository = RemoteTodoRepository(client: stack.client(over: late), cache: InMemoryTodoCache())

      var calls: [Task<Void, Never>] = []
      for id in 1...12 {
        calls.append(
          Task {
            _ = await Result.of { () async throws(DomainError) in
              switch late.random(below: 3) {
              case 0: _ = try await repository.todos()
              case 1: _ = try await repository.createTodo(title: "Milk \(id)")
              default: _ = try await repository.setCompleted(late.random(below: 2) == 0, forTodoWithID: id)
              }
            }
          })
      }
      for call in calls { await call.value }

      let server = try await Result.of { () async throws(DomainError) in try await stack.todos.todos() }.get()
      // Created todos join the cached list's end in the order they were answered.
      let cached = repository.cachedTodos()?.sorted { $0.id < $1.id }
      #expect(cached == nil || cached == server, "seed \(seed)")
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

/// A transport that sends every request on at once, so the server reads and answers it then, and
/// holds the answer to `holding` (a method and a path) until ``release()``.
private struct HeldAnswers: HTTPTransport {
  private let next: any HTTPTransport
  private let held: String
  private let arrived = AsyncStream<Void>.makeStream()
  private let gate = AsyncStream<Void>.makeStream()

  init(_ next: any HTTPTransport, holding held: String) {
    (self.next, self.held) = (next, held)
  }

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    let answer = try await next.send(request)
    guard "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")" == held else { return answer }
    arrived.continuation.yield()
    for await _ in gate.stream { break }
    return answer
  }

  /// Returns once the held request's answer has come back from the server.
  func answerArrived() async {
    for await _ in arrived.stream { return }
  }

  /// Hands the held answer on.
  func release() {
    gate.continuation.finish()
  }
}

/// A transport that hands each request on after a random number of yields and its answer back
/// after another: the server reads or writes at once, and answers in any order.
private struct LateAnswers: HTTPTransport {
  private let next: any HTTPTransport
  private let generator: Locked<SplitMix64>

  init(_ next: any HTTPTransport, seed: UInt64) {
    (self.next, generator) = (next, Locked(SplitMix64(seed: seed)))
  }

  /// A number below `bound`, the same for the same seed and draw.
  func random(below bound: Int) -> Int {
    generator.withLock { Int($0.next() % UInt64(bound)) }
  }

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    for _ in 0..<random(below: 40) { await Task.yield() }
    let answer = try await next.send(request)
    for _ in 0..<random(below: 40) { await Task.yield() }
    return answer
  }
}
