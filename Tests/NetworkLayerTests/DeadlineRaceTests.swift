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
  /// An interceptor whose adapt ignores cancellation and returns only when the test opens it,
  /// after checking that the call already ended. A call that waited for it would hang until the
  /// gate's fallback (20 s) opens it, and then fail the check: no timing on a loaded machine can
  /// make these tests pass or fail wrongly, and no test sleeps while it waits.
  private final class DeafInterceptor: RequestInterceptor {
    private let gate = Locked<(isOpen: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, nil))
    private let fallback = Locked<Task<Void, Never>?>(nil)
    let entered = Locked(false)
    let finished = Locked(false)

    init() {
      fallback.withLock {
        $0 = Task { [weak self] in
          do { try await Task.sleep(for: .seconds(20)) } catch { return }
          self?.open()
        }
      }
    }

    deinit {
      fallback.withLock { $0?.cancel() }
    }

    /// Lets the adapt return, and waits until it has if the call got as far as entering it.
    func release() async throws {
      open()
      if entered.withLock({ $0 }) {
        try await Timing.poll(atMost: .seconds(30)) { finished.withLock { $0 } }
      }
    }

    private func open() {
      gate.withLock { gate in
        gate.isOpen = true
        defer { gate.waiting = nil }
        return gate.waiting
      }?.resume()
    }

    func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
      entered.withLock { $0 = true }
      await withCheckedContinuation { continuation in
        let isOpen = gate.withLock { gate in
          if !gate.isOpen { gate.waiting = continuation }
          return gate.isOpen
        }
        if isOpen { continuation.resume() }
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
    let interceptor = DeafInterceptor()
    let client = server.client([interceptor])

    let (result, took) = await Timing.elapsed {
      await client.outcome(Endpoint<TestTodo>(path: ["todos"], deadline: .milliseconds(200)))
    }

    // Ended before the interceptor let go: the race did not wait for the cancelled work.
    let interceptorWasStillBusy = !interceptor.finished.withLock { $0 }
    #expect(result == .failure(.timeout))
    #expect(interceptorWasStillBusy, "the deadline waited for the interceptor: \(took)")
    try await interceptor.release()
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty, "a request adapted after the deadline was sent")
  }

  @Test(
    "cancelling the caller ends a call at once while an interceptor ignores cancellation; nothing is sent")
  func cancellationDoesNotWaitForCancelledWork() async throws {
    let server = RecordingServer()
    let interceptor = DeafInterceptor()
    let client = server.client([interceptor])
    let call = Task { await client.outcome(Endpoint<TestTodo>(path: ["todos"])) }
    try await Timing.poll { interceptor.entered.withLock { $0 } }

    let (result, took) = await Timing.elapsed {
      call.cancel()
      return await call.value
    }

    let interceptorWasStillBusy = !interceptor.finished.withLock { $0 }
    #expect(result == .failure(.cancelled))
    #expect(interceptorWasStillBusy, "the cancellation waited for the interceptor: \(took)")
    try await interceptor.release()
    try await Task.sleep(for: .milliseconds(100))
    #expect(server.received.withLock { $0 }.isEmpty, "a request adapted after the cancellation was sent")
  }
}
