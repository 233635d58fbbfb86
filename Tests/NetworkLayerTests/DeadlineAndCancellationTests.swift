import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Deadlines and cancellation over real sockets, where they are hardest: the toolchain truncates
/// `timeoutInterval` to whole seconds, and cancelling a task can race with its completion.
@Suite(
  "Deadlines and cancellation against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(2))
)
struct DeadlineAndCancellationTests {
  /// Runs `body` against a loopback sample API whose routes need no token.
  private func withOpenAPI(
    _ body: (LoopbackSampleAPI, SampleBackendConnection) async throws -> Void
  ) async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      try await body(server, connection)
    }
  }

  @Test("a 0.3 s deadline against a 1.5 s response fails with timeout at the deadline, not at the response")
  func shortDeadline() async throws {
    try await withOpenAPI { server, connection in
      try await connection.inject(.init(path: "/todos", delay: 1.5))
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)
      let endpoint = Endpoint<[TestTodo]>(path: ["todos"], deadline: .milliseconds(300))

      let result = await client.outcome(endpoint)

      // The answer would have been a success at 1.5 s; a timeout means the deadline ended the call.
      #expect(result == .failure(.timeout))
    }
  }

  @Test("a call that times out is abandoned, and the server sees the request go away")
  func timedOutRequestIsCancelled() async throws {
    try await withOpenAPI { server, connection in
      // Far longer than the deadline, so that even on a loaded machine the answer cannot come first.
      try await connection.inject(.init(path: "/todos", delay: 30))
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)

      let result = await client.outcome(Endpoint<[TestTodo]>(path: ["todos"], deadline: .milliseconds(300)))

      #expect(result == .failure(.timeout))
      let counters = try await connection.counters(once: { $0.cancelled >= $0.paths["GET /todos"] ?? 0 })
      #expect(
        counters.cancelled == counters.paths["GET /todos"] ?? 0,
        "a request the server saw was seen to go away"
      )
    }
  }

  @Test("a response inside its deadline is untouched, also with a sub-second deadline")
  func responseInsideDeadline() async throws {
    try await withOpenAPI { server, connection in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)
      // Warm the connection, so the timed call measures the client and not the server's start.
      _ = try await client.send(Endpoint<[TestTodo]>(path: ["todos"]))
      // This toolchain truncates URLRequest.timeoutInterval to whole seconds, so 0.9 would time
      // out almost at once: an early timeout is the bug this catches, and it fails the test.
      // A loaded machine may really take longer than 0.9 s, so after a late timeout the call is
      // made again, up to ten times: the flood tests beside it can hold Foundation's one work
      // queue for several calls in a row.
      let clock = ContinuousClock()
      var answered: [TestTodo]?
      for _ in 0..<10 where answered == nil {
        let started = clock.now
        let result = await client.outcome(Endpoint<[TestTodo]>(path: ["todos"], deadline: .milliseconds(900)))
        let elapsed = clock.now - started
        switch result {
        case .success(let list):
          answered = list
        case .failure(let error):
          #expect(error == .timeout && elapsed >= .milliseconds(850), "\(error) after \(elapsed)")
        }
      }
      #expect(answered?.count == 200)
    }
  }

  @Test("a deadline of zero or less has passed before the call begins: timeout, and nothing is sent")
  func deadlineAlreadyPassed() async throws {
    try await withOpenAPI { server, connection in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)

      for deadline: Duration in [.zero, .milliseconds(-1), .seconds(-3600)] {
        let result = await client.outcome(Endpoint<[TestTodo]>(path: ["todos"], deadline: deadline))
        #expect(result == .failure(.timeout), "deadline \(deadline)")
      }

      let counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == nil, "a call whose deadline had passed reached the server")
    }
  }

  @Test("a deadline too far away to count is kept as a year: the call is answered")
  func deadlineOfCenturies() async throws {
    try await withOpenAPI { server, connection in
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, transport: connection.transport, defaultDeadline: .seconds(Int64.max))

      let byDefault = await client.outcome(Endpoint<[TestTodo]>(path: ["todos"]))
      let byEndpoint = await client.outcome(
        Endpoint<[TestTodo]>(path: ["todos"], deadline: .seconds(1_000_000_000_000)))

      #expect((try? byDefault.get())?.count == 200, "\(byDefault)")
      #expect((try? byEndpoint.get())?.count == 200, "\(byEndpoint)")
    }
  }

  @Test(
    "200 requests cancelled at random moments all end, as cancelled or answered, and leave no task behind")
  func randomCancellations() async throws {
    try await withOpenAPI { server, connection in
      try await connection.inject(.init(path: "/todos/1", count: -1, delay: 0.05))
      let session = URLSession.loopbackTesting()
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: session)
      let endpoint = Endpoint<TestTodo>(path: ["todos", "1"])

      let results = await concurrently(200) { _ in
        let request = Task { await client.outcome(endpoint) }
        try? await Task.sleep(for: .milliseconds(Int.random(in: 0...120)))
        request.cancel()
        return await request.value
      }

      let unexpected = results.filter { result in
        switch result {
        case .success(let todo): todo.id != 1
        case .failure(let error): error != .cancelled
        }
      }
      #expect(results.count == 200)
      #expect(unexpected.isEmpty, "\(unexpected)")
      var remaining = await session.runningTaskCount()
      for _ in 0..<100 where remaining > 0 {
        try await Task.sleep(for: .milliseconds(20))
        remaining = await session.runningTaskCount()
      }
      #expect(remaining == 0, "\(remaining) URLSession tasks were left running")
    }
  }
}

extension URLSession {
  /// How many of the session's tasks have not completed.
  fileprivate func runningTaskCount() async -> Int {
    await withCheckedContinuation { continuation in
      getAllTasks { tasks in
        continuation.resume(returning: tasks.filter { $0.state != URLSessionTask.State.completed }.count)
      }
    }
  }
}
