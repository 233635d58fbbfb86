import Foundation
import LayeredSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Foundation's work queue held busy, as a body flooding in faster than libcurl can read it holds
/// it: on swift-corelibs-foundation, creating, resuming and cancelling a task each wait for that
/// queue, which every session of the process shares. So the test holds it only until its calls
/// have ended, a tenth of a second when it passes, not to hold up the tests running beside it.
@Suite("Transport, while Foundation's work queue is busy", .serialized)
struct BusyWorkQueueTests {
  /// Holds Foundation's work queue in `startLoading` (which swift-corelibs-foundation runs on
  /// that queue) until the gate opens, then answers `200 []`.
  private final class QueueHoldingProtocol: URLProtocol {
    static let gate = Gate()

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
      Self.gate.waitUntilOpen()
      guard let url = request.url,
        let response = HTTPURLResponse(
          url: url, statusCode: 200, httpVersion: "HTTP/1.1",
          headerFields: ["Content-Type": "application/json", "Content-Length": "2"])
      else { return }
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: Data("[]".utf8))
      client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
  }

  /// A gate that blocks threads until it opens, and stays open.
  final class Gate: Sendable {
    private let condition = NSCondition()
    private let isOpenState = Locked(true)

    var isOpen: Bool { isOpenState.withLock { $0 } }

    func close() {
      isOpenState.withLock { $0 = false }
    }

    func open() {
      condition.lock()
      isOpenState.withLock { $0 = true }
      condition.broadcast()
      condition.unlock()
    }

    func waitUntilOpen() {
      condition.lock()
      while !isOpen { condition.wait() }
      condition.unlock()
    }
  }

  private static func makeClient(deadline: Duration) -> URLSessionHTTPClient {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [QueueHoldingProtocol.self]
    configuration.urlCache = nil
    let baseURL = URL(string: "http://queue-holding.invalid") ?? URL(fileURLWithPath: "/")
    return URLSessionHTTPClient(
      baseURL: baseURL, session: URLSession(configuration: configuration), defaultDeadline: deadline)
  }

  /// Holds the work queue while `callCount` calls with a 100 ms deadline run, on one client or
  /// on a client made for each; returns what went wrong, if anything.
  private static func callsWhileTheWorkQueueIsHeld(callCount: Int, clientForEachCall: Bool) async -> [String]
  {
    let gate = QueueHoldingProtocol.gate
    gate.close()
    // Never left closed, even if the calls hang: opened from a thread of its own, since a hang
    // here means that the threads Swift concurrency runs on are stuck.
    let watchdog = DispatchQueue(label: "BusyWorkQueueTests.watchdog")
    watchdog.asyncAfter(deadline: .now() + 10) { gate.open() }
    defer { gate.open() }
    let shared = makeClient(deadline: .milliseconds(100))

    let outcomes = await withTaskGroup(of: (Result<[Int], NetworkError>, Bool).self) { group in
      for _ in 0..<callCount {
        let client = clientForEachCall ? makeClient(deadline: .milliseconds(100)) : shared
        group.addTask {
          let outcome = await client.outcome(Endpoint<[Int]>(path: ["items"]))
          return (outcome, gate.isOpen)
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    let otherTaskRan = await Task.detached { !gate.isOpen }.value

    var failures: [String] = []
    for (outcome, queueWasFree) in outcomes {
      if outcome != .failure(.timeout) { failures.append("a call ended with \(outcome), not timeout") }
      if queueWasFree { failures.append("a call returned only once the work queue was let go") }
    }
    if !otherTaskRan { failures.append("another task ran only once the work queue was let go") }
    gate.open()
    let after = await shared.outcome(Endpoint<[Int]>(path: ["items"], deadline: .seconds(10)))
    if after != .success([]) { failures.append("once the work queue was free, a call ended with \(after)") }
    return failures
  }

  /// Runs the scenario in a process of its own, which fails if anything went wrong or if it has
  /// not finished within 60 s (a hang may leave no dispatch thread to run a timer: a plain
  /// thread ends it).
  private static func expectInAProcessOfItsOwn(
    callCount: Int, clientForEachCall: Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    // The work queue is the whole process's, and while it is held every other test's URLSession
    // calls would wait for it too, some of them on the pool's threads.
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardErrorContent], sourceLocation: sourceLocation
    ) { [callCount, clientForEachCall] in
      let limit = Thread {
        Thread.sleep(forTimeInterval: 60)
        FileHandle.standardError.write(Data("still running after 60 s".utf8))
        exit(EXIT_FAILURE)
      }
      limit.start()
      let failures = await BusyWorkQueueTests.callsWhileTheWorkQueueIsHeld(
        callCount: callCount, clientForEachCall: clientForEachCall)
      guard failures.isEmpty else {
        FileHandle.standardError.write(Data(failures.joined(separator: "\n").utf8))
        exit(EXIT_FAILURE)
      }
    }
    if let result, result.exitStatus != .exitCode(EXIT_SUCCESS) {
      Issue.record(
        "\(String(decoding: result.standardErrorContent, as: UTF8.self))", sourceLocation: sourceLocation)
    }
  }

  @Test("calls end at their deadline while Foundation's work queue is held, however many there are")
  func deadlinesHoldWhileTheWorkQueueIsHeld() async {
    // Before, each call after the first waited for the held queue on one of the pool's threads,
    // to create its task: twice as many calls as there are threads, plus two.
    await Self.expectInAProcessOfItsOwn(
      callCount: 2 * ProcessInfo.processInfo.activeProcessorCount + 2, clientForEachCall: false)
  }

  @Test(
    "calls of 300 clients made one for each end at their deadline while Foundation's work queue is held, and the process recovers"
  )
  func clientForEachCallWhileTheWorkQueueIsHeld() async {
    // A queue that starts tasks for each session would put 300 threads to wait for the held
    // queue, more than the 255 libdispatch makes, and leave the work queue none once let go.
    await Self.expectInAProcessOfItsOwn(callCount: 300, clientForEachCall: true)
  }
}
