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
      if await Self.status(of: request, on: session, waitingAtMost: .seconds(3)) != 200 {
        unanswered.append(index)
      }
      session.finishTasksAndInvalidate()
      // A few lost requests prove the point; waiting for hundreds would only slow the failure.
      if unanswered.count == 5 { break }
    }
    #expect(unanswered.isEmpty, "requests without an answer within 3 s: \(unanswered)")
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
  /// request never times out on its own).
  private static func status(
    of request: URLRequest,
    on session: URLSession,
    waitingAtMost limit: Duration
  ) async -> Int? {
    await withTaskGroup(of: Int?.self) { group in
      group.addTask {
        let response = try? await session.data(for: request).1
        return (response as? HTTPURLResponse)?.statusCode ?? -1
      }
      group.addTask {
        try? await Task.sleep(for: limit)
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }
}
