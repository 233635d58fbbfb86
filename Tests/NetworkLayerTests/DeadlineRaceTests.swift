import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The deadline and the caller's cancellation end a call at once, without waiting for work that
/// is slow to notice it was cancelled, and a request adapted after that point is never sent.
@Suite("Deadlines against work that ignores cancellation", .timeLimit(.minutes(1)))
struct DeadlineRaceTests {
  /// An interceptor whose adapt takes `delay` whatever happens, as a slow, uncancellable wait.
  ///
  /// The tests use 3 s: a call that waited for it would end 15 times later than its 0.2 s
  /// deadline, a margin no load on a shared machine closes, and the suite, which must wait for
  /// the interceptor before it can show that nothing was sent, does not sit idle for 10 s.
  private final class DeafInterceptor: RequestInterceptor {
    let delay: Double
    let finished = Locked(false)

    init(delay: Double) {
      self.delay = delay
    }

    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      let delay = self.delay
      await withCheckedContinuation { continuation in
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { continuation.resume() }
      }
      finished.withLock { $0 = true }
      return request
    }

    func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
      .doNotRetry
    }
  }

  @Test("the deadline ends a call at once while an interceptor ignores cancellation, and nothing is sent")
  func deadlineDoesNotWaitForCancelledWork() async throws {
    let server = RecordingServer()
    defer { server.mount.unmount() }
    let interceptor = DeafInterceptor(delay: 3)
    let client = server.client([interceptor])

    let (result, took) = await Timing.elapsed {
      await client.outcome(Endpoint<TestTodo>(path: ["todos"], deadline: .milliseconds(200)))
    }

    // Ended before the interceptor let go: the race did not wait for the cancelled work.
    let interceptorWasStillBusy = !interceptor.finished.withLock { $0 }
    #expect(result == .failure(.timeout))
    #expect(interceptorWasStillBusy, "the deadline waited for the interceptor: \(took)")
    try await Timing.poll(atMost: .seconds(30)) { interceptor.finished.withLock { $0 } }
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty, "a request adapted after the deadline was sent")
  }

  @Test(
    "cancelling the caller ends a call at once while an interceptor ignores cancellation; nothing is sent")
  func cancellationDoesNotWaitForCancelledWork() async throws {
    let server = RecordingServer()
    defer { server.mount.unmount() }
    let interceptor = DeafInterceptor(delay: 3)
    let client = server.client([interceptor])
    let call = Task { await client.outcome(Endpoint<TestTodo>(path: ["todos"])) }
    try await Task.sleep(for: .milliseconds(100))

    let (result, took) = await Timing.elapsed {
      call.cancel()
      return await call.value
    }

    let interceptorWasStillBusy = !interceptor.finished.withLock { $0 }
    #expect(result == .failure(.cancelled))
    #expect(interceptorWasStillBusy, "the cancellation waited for the interceptor: \(took)")
    try await Timing.poll(atMost: .seconds(30)) { interceptor.finished.withLock { $0 } }
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty, "a request adapted after the cancellation was sent")
  }
}
