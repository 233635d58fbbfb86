import Foundation
import LayeredTestSupport
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("In-process delivery", .timeLimit(.minutes(3)))
struct InProcessDeliveryTests {
  /// A handler that answers at once is the hard case: its reply can be ready before
  /// `startLoading` has even stored the request's task. Directly delivered replies are what
  /// Apple platforms always use; forcing them here runs that path on Linux too.
  @Test(
    "every one of 500 sequential requests is answered, through Foundation's work queue or directly",
    arguments: [false, true]
  )
  func everyRequestIsAnswered(deliveringDirectly: Bool) async throws {
    let mount = InProcessURLProtocol.mount(
      StubHandler { _ in .respond(InProcessResponse(status: 200, body: Data("ok".utf8))) },
      deliveringDirectly: deliveringDirectly
    )
    defer { mount.unmount() }
    var unanswered: [Int] = []
    for index in 0..<500 {
      // A session per request: corelibs' task registry is unsynchronised, so a direct reply
      // for one task races with the removal of the task before it in the same session (that
      // race is why Linux uses the work queue). Alone in its session, a request can only be
      // lost by the protocol itself.
      let session = mount.makeSession()
      let request = URLRequest(url: mount.baseURL.appendingPathComponent("requests/\(index)"))
      if await Self.status(of: request, on: session, waitingAtMost: .seconds(15)) != 200 {
        unanswered.append(index)
      }
      session.finishTasksAndInvalidate()
      // A few lost requests prove the point; waiting for hundreds would only slow the failure.
      if unanswered.count == 3 { break }
    }
    // 15 s is far beyond any answer on a loaded machine (a stub answers in microseconds; the
    // loopback floods of other suites can starve the process for seconds): a request without
    // an answer by then was dropped. The protocol's former race dropped 5 of the first 58.
    #expect(unanswered.isEmpty, "requests without an answer within 15 s: \(unanswered)")
  }

  #if canImport(FoundationNetworking)
    /// In-process replies must reach swift-corelibs-foundation on its work queue, found by
    /// reflection; if a toolchain update renames or moves it, replies silently fall back to the
    /// direct path, which races with Foundation's task registry under load.
    @Test("swift-corelibs-foundation's task work queue is still found by reflection")
    func workQueueIsFound() {
      let mount = InProcessURLProtocol.mount(StubHandler { _ in .fail(.cancelled) })
      defer { mount.unmount() }
      let session = mount.makeSession()
      let task = session.dataTask(with: mount.baseURL)
      defer { task.cancel() }
      #expect(
        InProcessURLProtocol.workQueue(of: task) != nil,
        """
        URLSessionTask no longer has a `workQueue` that Mirror can see: update \
        InProcessURLProtocol.workQueue(of:) for this toolchain before trusting in-process tests
        """
      )
    }
  #endif

  /// The status of `request`, or `nil` when no answer came within `limit` (an in-process
  /// request never times out on its own). The data task is cancelled from a dispatch queue, never
  /// from a cancellation handler: that can deadlock on swift-corelibs-foundation (issue 5412).
  private static func status(
    of request: URLRequest,
    on session: URLSession,
    waitingAtMost limit: Duration
  ) async -> Int? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
      let once = Once(continuation)
      let task = session.dataTask(with: request) { _, response, _ in
        once.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? -1)
      }
      task.resume()
      let seconds = Double(limit.components.seconds)
      DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        once.resume(returning: nil)
        task.cancel()
      }
    }
  }
}

/// Resumes a continuation at most once, from whichever of two threads comes first.
private final class Once: @unchecked Sendable {
  // Touched only on `queue`.
  private var continuation: CheckedContinuation<Int?, Never>?
  private let queue = DispatchQueue(label: "InProcessDeliveryTests.Once")

  init(_ continuation: CheckedContinuation<Int?, Never>) {
    self.continuation = continuation
  }

  func resume(returning value: Int?) {
    let continuation = queue.sync {
      defer { self.continuation = nil }
      return self.continuation
    }
    continuation?.resume(returning: value)
  }
}
