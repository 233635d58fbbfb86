import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Transport cancellation, without a socket")
struct TransportCancellationTests {
  /// Cancels the calling task from inside `adapt`, then returns the request as if nothing
  /// happened: the cancellation arrives in the last moments before the request would be sent.
  private final class CancelCallerWhileAdapting: RequestInterceptor {
    let cancelCaller = Locked<(@Sendable () -> Void)?>(nil)

    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      while true {
        if let cancel = cancelCaller.withLock({ $0 }) {
          cancel()
          return request
        }
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
  }

  private static let emptyList = InProcessResponse(
    status: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8))

  @Test(
    "a request cancelled before its task starts is never sent, and ends as cancelled",
    arguments: StubCarrier.allCases)
  func cancelledBeforeStartIsNeverSent(carrier: StubCarrier) async throws {
    let server = StubServer(carrier, answer: .respond(Self.emptyList))

    for _ in 0..<20 {
      let interceptor = CancelCallerWhileAdapting()
      let client = server.client(interceptors: [interceptor])
      let call = Task { await client.outcome(Endpoint<[TestTodo]>(path: ["todos"])) }
      interceptor.cancelCaller.withLock { $0 = { call.cancel() } }
      #expect(await call.value == .failure(.cancelled))
    }
    // A task that had been resumed would reach the server within milliseconds.
    try await Task.sleep(for: .milliseconds(300))
    #expect(server.arrivals.withLock { $0 } == 0, "no cancelled request reached the server")
  }

  @Test(
    "a thousand calls cancelled at once all end as cancelled, and the server sees every request stop",
    arguments: StubCarrier.allCases, [false, true])
  func massCancellation(carrier: StubCarrier, clientForEachCall: Bool) async throws {
    let server = StubServer(carrier, answer: .hang)
    let shared = server.client()
    let count = 1_000

    // A client made for each call is a thousand sessions, whose starts must not take a thread
    // each either.
    let calls = (0..<count).map { _ in
      let client = clientForEachCall ? server.client() : shared
      return Task { await client.outcome(Endpoint<[TestTodo]>(path: ["todos"])) }
    }
    try await Timing.poll(atMost: .seconds(60)) { server.open.withLock { $0 } == count }
    #expect(server.open.withLock { $0 } == count, "every request reached the server")
    for call in calls { call.cancel() }
    var outcomes: [Result<[TestTodo], NetworkError>] = []
    for call in calls { outcomes.append(await call.value) }
    // Each cancel of a URLSession task waits for Foundation's work queue; a thread for each
    // would take every thread libdispatch makes, leave the work queue none, and hang here.
    try await Timing.poll(atMost: .seconds(60)) { server.stopped.withLock { $0 } == count }

    #expect(outcomes.allSatisfy { $0 == .failure(.cancelled) })
    #expect(server.stopped.withLock { $0 } == count, "every request was stopped at the server")
  }

  @Test(
    "a size limit the transport acts on never reads as the caller's cancellation",
    arguments: StubCarrier.allCases)
  func transportStopsAreNotCancellations(carrier: StubCarrier) async throws {
    let big = Data(repeating: UInt8(ascii: " "), count: 4_096)
    let server = StubServer(
      carrier,
      answer: .respond(
        InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: big)))
    let client = server.client(maximumResponseSize: 1_024)
    for _ in 0..<20 {
      #expect(
        await client.outcome(Endpoint<[TestTodo]>(path: ["todos"]))
          == .failure(.responseTooLarge(limit: 1_024)))
    }
  }
}

/// The other stop the transport makes itself: an authentication challenge it cancels, which only
/// a real socket raises (swift-corelibs-foundation asks no challenge of a custom URLProtocol).
@Suite(
  "Transport cancellation, over loopback",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(2))
)
struct TransportCancellationLoopbackTests {
  @Test("a challenge the transport cancels surfaces as bad status 401, never as the caller's cancellation")
  func cancelledChallengeIsNotACancellation() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      try await connection.configure(requireAuth: false)
      let rounds = 20
      try await connection.challenge("/todos/1", scheme: #"Basic realm="api""#, count: rounds)
      // A deadline far beyond "at once": a 401 the transport failed to deliver would time out.
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, transport: connection.transport, defaultDeadline: .seconds(30))

      for _ in 0..<rounds {
        // The transport cancels the task as it delivers the 401; Foundation then reports
        // `URLError(.cancelled)`, which must not replace the 401.
        #expect(
          await client.outcome(Endpoint<TestTodo>(path: ["todos", "1"]))
            == .failure(.badStatus(code: 401, bodyExcerpt: #"{"error":"authentication required"}"#)))
      }
      #expect(try await connection.probeLog().challenged == rounds, "every 401 came from the challenge")
    }
  }
}
