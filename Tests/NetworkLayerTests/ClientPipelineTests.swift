import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The client's pipeline: adapt → send → validate → decide, with time from a manual clock.
@Suite("The request pipeline", .timeLimit(.minutes(1)))
struct ClientPipelineTests {
  /// A stub server that answers from a script, one status per request, and counts requests.
  private final class ScriptedServer: Sendable {
    let requests = Locked<[InProcessRequest]>([])
    let mount: InProcessTransport

    init(statuses: [Int], headers: [String: String] = [:]) {
      let requests = self.requests
      mount = InProcessTransport(
        StubHandler { request in
          let index = requests.withLock { seen in
            seen.append(request)
            return seen.count - 1
          }
          let status = index < statuses.count ? statuses[index] : statuses.last ?? 200
          var fields = headers
          fields["Content-Type"] = "application/json"
          let body = status == 200 ? #"{"userId":1,"id":1,"title":"a","completed":false}"# : #"{"error":"x"}"#
          return .respond(InProcessResponse(status: status, headers: fields, body: Data(body.utf8)))
        }
      )
    }

    var count: Int { requests.withLock { $0.count } }

    func client(
      interceptors: [any RequestInterceptor],
      monitors: [any NetworkEventMonitor] = [],
      clock: any Clock<Duration> = ContinuousClock()
    ) -> URLSessionHTTPClient {
      URLSessionHTTPClient(
        baseURL: mount.baseURL,
        transport: mount,
        interceptors: interceptors,
        monitors: monitors,
        clock: clock
      )
    }
  }

  /// Appends its mark to `X-Trace` and decides nothing, or what it is told to.
  private struct Marker: RequestInterceptor {
    let mark: String
    var decision: RetryDecision = .doNotRetry
    var adaptError: NetworkError?

    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      if let adaptError { throw adaptError }
      var request = request
      let trace = request.value(forHTTPHeaderField: "X-Trace").map { $0 + "," } ?? ""
      request.setValue(trace + "\(mark)@\(context.attempt)", forHTTPHeaderField: "X-Trace")
      return request
    }

    func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
      decision
    }
  }

  private final class EventLog: NetworkEventMonitor {
    let events = Locked<[NetworkEvent]>([])
    func record(_ event: NetworkEvent) { events.withLock { $0.append(event) } }

    var retryDelays: [Duration] {
      events.withLock { events in
        events.compactMap { event in
          if case .retrying(_, _, let delay) = event { delay } else { nil }
        }
      }
    }
  }

  private static let todo = Endpoint<TestTodo>(path: ["todos", "1"])

  private static func policy(maxAttempts: Int = 3) -> RetryPolicy {
    RetryPolicy(maxAttempts: maxAttempts, baseDelay: .milliseconds(200), random: { $0.upperBound })
  }

  @Test("interceptors adapt every attempt, in order")
  func adaptOrder() async throws {
    let server = ScriptedServer(statuses: [503, 200])
    let client = server.client(interceptors: [Marker(mark: "a"), Marker(mark: "b", decision: .retryNow)])
    _ = try await client.send(Self.todo)
    let traces = server.requests.withLock { $0.map { $0.header("X-Trace") } }
    #expect(traces == ["a@1,b@1", "a@2,b@2"])
  }

  @Test("an adapt failure fails the call without sending anything")
  func adaptFailure() async {
    let server = ScriptedServer(statuses: [200])
    let client = server.client(interceptors: [Marker(mark: "a", adaptError: .invalidRequest("no way"))])
    #expect(await client.outcome(Self.todo) == .failure(.invalidRequest("no way")))
    #expect(server.count == 0)
  }

  @Test("the first interceptor with a decision wins, and fail replaces the attempt's error")
  func firstDecisionWins() async {
    let server = ScriptedServer(statuses: [503, 200])
    let client = server.client(interceptors: [
      Marker(mark: "a"), Marker(mark: "b", decision: .fail(.unauthorized)), Self.policy(),
    ])
    #expect(await client.outcome(Self.todo) == .failure(.unauthorized))
    #expect(server.count == 1)
  }

  @Test("a GET that fails twice with 503 succeeds on the third attempt after the backoff delays")
  func retriesWithBackoff() async throws {
    let server = ScriptedServer(statuses: [503, 503, 200])
    let clock = TestClock()
    let log = EventLog()
    let client = server.client(interceptors: [Self.policy()], monitors: [log], clock: clock)
    let call = Task { await client.outcome(Self.todo) }
    try await clock.waitForSleepers(count: 2)  // the deadline and the first backoff
    #expect(server.count == 1)
    clock.advance(by: .milliseconds(200))
    try await clock.waitForSleepers(count: 2)
    #expect(server.count == 2)
    clock.advance(by: .milliseconds(400))
    #expect((try await call.value.get()).id == 1)
    #expect(server.count == 3)
    #expect(log.retryDelays == [.milliseconds(200), .milliseconds(400)])
  }

  @Test("monitors see each attempt start, its response and its retry, then the call's outcome")
  func eventsOfACall() async throws {
    let server = ScriptedServer(statuses: [503, 200])
    let log = EventLog()
    let client = server.client(interceptors: [Marker(mark: "a", decision: .retryNow)], monitors: [log])
    _ = try await client.send(Self.todo)
    let events = log.events.withLock { $0 }
    let seen = events.map { event -> String in
      switch event {
      case .requestStarted(let summary):
        "started \(summary.attempt) \(summary.method) \(summary.url.hasSuffix("/todos/1"))"
      case .responseReceived(let summary, let status, let count, let duration):
        "response \(summary.attempt) \(status) \(count > 0) \(duration > .zero)"
      case .retrying(let summary, .badStatus(let code, _), let delay):
        "retrying \(summary.attempt) \(code) \(delay == .zero)"
      case .succeeded(let summary, let duration): "succeeded \(summary.attempt) \(duration > .zero)"
      case .failed(let summary, let error, _): "failed \(summary.attempt) \(error)"
      default: "other"
      }
    }
    #expect(
      seen == [
        "started 1 GET true", "response 1 503 true true", "retrying 1 503 true",
        "started 2 GET true", "response 2 200 true true", "succeeded 2 true",
      ])
    let callIDs = Set(
      events.compactMap { event -> Int? in
        if case .requestStarted(let summary) = event { summary.callID } else { nil }
      })
    #expect(callIDs.count == 1, "every attempt is grouped under the one call")
  }

  @Test("a call that fails before its first attempt is reported under attempt 0, with nothing sent")
  func eventsOfACallThatNeverSent() async {
    let server = ScriptedServer(statuses: [200])
    let log = EventLog()
    let client = server.client(
      interceptors: [Marker(mark: "a", adaptError: .invalidRequest("no way"))], monitors: [log])
    #expect(await client.outcome(Self.todo) == .failure(.invalidRequest("no way")))
    let events = log.events.withLock { $0 }
    guard events.count == 1, case .failed(let summary, let error, _) = events[0] else {
      Issue.record("expected one failure, got \(events)")
      return
    }
    #expect(summary.attempt == 0)
    #expect(summary.url.hasSuffix("/todos/1"))
    #expect(error == .invalidRequest("no way"))
    #expect(server.count == 0)
  }

  @Test(
    "a call that fails before its first attempt names the URL it would have gone to, or its path when there is none"
  )
  func urlOfACallThatNeverSent() async {
    let server = ScriptedServer(statuses: [200])
    let log = EventLog()
    let client = server.client(
      interceptors: [Marker(mark: "a", adaptError: .invalidRequest("no way"))], monitors: [log])
    let listed = Endpoint<TestTodo>(path: ["todos", "1"], query: [URLQueryItem(name: "q", value: "a b")])
    _ = await client.outcome(listed.endingWithSlash())
    _ = await client.outcome(Endpoint<TestTodo>(path: ["todos", ""]))
    let urls = log.events.withLock { events in
      events.compactMap { event -> String? in
        if case .failed(let summary, _, _) = event { summary.url } else { nil }
      }
    }
    let base = server.mount.baseURL.absoluteString
    #expect(urls == [base + "/todos/1/?q=a%20b", "/todos/"])
    #expect(server.count == 0)
  }

  @Test("Retry-After is waited for, on the client's clock")
  func honoursRetryAfter() async throws {
    let server = ScriptedServer(statuses: [429, 200], headers: ["Retry-After": "3"])
    let clock = TestClock()
    let client = server.client(interceptors: [Self.policy()], clock: clock)
    let call = Task { await client.outcome(Self.todo) }
    try await clock.waitForSleepers(count: 2)
    clock.advance(by: .milliseconds(2_900))
    await Task.yield()
    #expect(server.count == 1, "not before the server's three seconds")
    clock.advance(by: .milliseconds(100))
    #expect((try await call.value.get()).id == 1)
    #expect(server.count == 2)
  }

  @Test("cancelling a call stops its pending retry")
  func cancellationStopsRetry() async throws {
    let server = ScriptedServer(statuses: [503])
    let clock = TestClock()
    let client = server.client(interceptors: [Self.policy()], clock: clock)
    let call = Task { await client.outcome(Self.todo) }
    try await clock.waitForSleepers(count: 2)
    call.cancel()
    #expect(await call.value == .failure(.cancelled))
    clock.advance(by: .seconds(60))
    #expect(server.count == 1)
  }

  @Test(
    "the deadline covers the whole call: a backoff that would reach it is not waited for, and nothing more is sent"
  )
  func deadlineCoversRetries() async throws {
    let server = ScriptedServer(statuses: [503])
    let clock = TestClock()
    let client = server.client(interceptors: [Self.policy(maxAttempts: 10)], clock: clock)
    var endpoint = Self.todo
    endpoint.deadline = .milliseconds(500)
    let call = Task { await client.outcome(endpoint) }
    try await clock.waitForSleepers(count: 2)  // the deadline, and the first backoff (200 ms)
    clock.advance(by: .milliseconds(200))
    while server.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
    // The second backoff would end at 600 ms, past the deadline: the call ends with the 503 it
    // has, before the deadline is reached.
    clock.advance(by: .milliseconds(300))
    let outcome = await call.value
    #expect(Self.status(of: outcome) == 503, "\(outcome)")
    #expect(server.count == 2)
  }

  @Test(
    "a Retry-After that would reach the deadline ends the call at once with the server's answer, sent once")
  func retryAfterBeyondTheDeadline() async throws {
    // A wait the policy accepts (its cap is 60 s), and a deadline long enough for the first
    // answer even under ThreadSanitizer.
    let server = ScriptedServer(statuses: [429, 200], headers: ["Retry-After": "50"])
    var endpoint = Self.todo
    endpoint.deadline = .seconds(20)

    let outcome = await server.client(interceptors: [Self.policy()]).outcome(endpoint)

    #expect(Self.status(of: outcome) == 429, "a timeout would hide what the server said: \(outcome)")
    #expect(server.count == 1)
  }

  @Test(
    "a retry delay too long for the clock, asked for by a server or an interceptor, ends the call with the server's answer"
  )
  func retryDelayBeyondTheClock() async throws {
    // A server asking to wait longer than any clock counts, with a policy that accepts any wait,
    // and an interceptor that asks for such a wait itself.
    let cases: [any RequestInterceptor] = [RetryPolicy(maxRetryAfter: .seconds(Int64.max)), EndlessRetry()]
    for interceptor in cases {
      let server = ScriptedServer(statuses: [503], headers: ["Retry-After": "99999999999999999999"])
      var endpoint = Self.todo
      endpoint.deadline = .milliseconds(500)

      let outcome = await server.client(interceptors: [interceptor]).outcome(endpoint)

      #expect(server.count <= 1, "no retry was sent")
      // Under ThreadSanitizer, in the whole suite, a deadline has passed before a first attempt
      // reached the stub; such a call ends with its timeout. One the server answered ends with
      // that answer.
      #expect(
        outcome
          == .failure(server.count == 0 ? .timeout : .badStatus(code: 503, bodyExcerpt: #"{"error":"x"}"#)))
    }
  }

  private static func status<Value>(of outcome: Result<Value, NetworkError>) -> Int? {
    if case .failure(let error) = outcome { error.status } else { nil }
  }

  @Test("a deadline too far away to count is kept as a year on any clock, not only the continuous one")
  func deadlineOfCenturiesOnAnotherClock() async throws {
    let server = ScriptedServer(statuses: [200])
    var endpoint = Self.todo
    endpoint.deadline = .seconds(Int64.max)

    let result = await server.client(interceptors: [], clock: SuspendingClock()).outcome(endpoint)

    #expect((try? result.get())?.id == 1, "\(result)")
  }

  /// Asks for a retry after the longest `Duration` there is, whatever the failure.
  private struct EndlessRetry: RequestInterceptor {
    func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
      .retry(after: .seconds(Int64.max))
    }
  }

  @Test("a POST opted in with an idempotency key carries the same key on every attempt, as the server sees")
  func idempotencyKeyIsKeptAcrossRetries() async throws {
    let server = ScriptedServer(statuses: [503, 502, 200])
    let client = server.client(interceptors: [RetryPolicy(baseDelay: .zero)])
    var create = Endpoint<TestTodo>(method: .post, path: ["todos"], body: .json(["title": "pay"]))
    create.headers["Idempotency-Key"] = UUID().uuidString
    create.isIdempotent = true

    _ = try await client.send(create)

    let keys = server.requests.withLock { $0.map { $0.headers["idempotency-key"] } }
    #expect(keys.count == 3)
    #expect(Set(keys).count == 1 && keys.first == create.headers["Idempotency-Key"])
  }

  @Test("a POST is not retried unless the endpoint opts in", arguments: [false, true])
  func postOptIn(optIn: Bool) async throws {
    let server = ScriptedServer(statuses: [503, 200])
    let client = server.client(interceptors: [RetryPolicy(baseDelay: .zero)])
    let endpoint = Endpoint<TestTodo>(method: .post, path: ["todos"], isIdempotent: optIn ? true : nil)
    let result = await client.outcome(endpoint)
    #expect(server.count == (optIn ? 2 : 1))
    #expect(((try? result.get()) != nil) == optIn)
  }

  @Test("empty bodies: fine for 204, HEAD and no-content endpoints, no data elsewhere")
  func emptyBodies() async throws {
    let mount = InProcessTransport(
      StubHandler { request in
        let status = request.path == "/gone" ? 204 : 200
        return .respond(InProcessResponse(status: status, headers: ["Content-Type": "application/json"]))
      }
    )
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    #expect(try await client.send(Endpoint<NoContent>(path: ["anything"])) == NoContent())
    #expect(try await client.send(Endpoint<TestTodo?>(path: ["gone"])) == nil)
    #expect(try await client.send(Endpoint<TestTodo?>(method: .head, path: ["head"])) == nil)
    #expect(await client.outcome(Endpoint<TestTodo?>(path: ["ok"])) == .failure(.noData))
    #expect(await client.outcome(Endpoint<TestTodo>(path: ["gone"])) == .failure(.noData))
  }
}
