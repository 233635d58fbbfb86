import Dispatch
import Foundation

/// The queues the transport's calls into URLSession that wait for Foundation's work queue run on,
/// so that none of them holds a thread that Swift concurrency needs. One set for the process.
///
/// On swift-corelibs-foundation, creating a task, resuming it and cancelling it each wait
/// (`sync`) for a serial work queue that runs libcurl, and so do the completion handlers that
/// cancel a task. Every session's work queue targets one serial queue, which stays busy for as
/// long as a body streams in as fast as libcurl can take it (a large download, a server that
/// floods), and every such call waits with it. On Swift's cooperative pool, which has as many
/// threads as the machine has cores, a few such waits stop every task of the process, deadlines
/// included. A serial queue of its own instead gets a thread of its own from libdispatch,
/// however many threads are waiting elsewhere. Tasks start on sixteen such queues, each session
/// on one of them (see ``startLane()``), and cancels on sixteen others (see ``runApart(_:)``).
/// The performance article has the waits.
///
/// A task that is the only live one of every client in the process is started on the caller's
/// thread all the same: with nothing of the clients' in flight the work queue is idle, and a hop
/// to a start lane would cost each request a thread wake-up.
final class URLSessionCallQueues: @unchecked Sendable {
  // @unchecked: the variables are only touched while holding `condition`.

  /// The queues of every client in the process.
  static let shared = URLSessionCallQueues()

  /// The serial queues cancels run on, each cancel on the next (see ``runApart(_:)``).
  private let cancelLanes = lanes("NetworkLayer.URLSessionCallQueues.cancels")
  private var nextCancelLane = 0
  /// The serial queues sessions start their tasks on, handed out in turn (see ``startLane()``).
  private let startLanes = lanes("NetworkLayer.URLSessionCallQueues.starts")
  private var nextStartLane = 0
  private let condition = NSCondition()
  /// The tasks counted in by ``countTaskIn()`` that their session has not yet reported complete.
  private var liveTasks = 0
  /// Whether a task is being created and resumed on its caller's thread. Starts on a lane wait
  /// for it to be through: a task they started meanwhile could begin loading, and hold the
  /// work queue, before that caller's calls got in.
  private var isStartingElsewhere = false

  private init() {}

  /// Sixteen serial queues: each gets a thread of its own when it has work, so at most sixteen
  /// threads wait on Foundation's work queue for them.
  private static func lanes(_ label: String) -> [DispatchQueue] {
    (0..<16).map { _ in DispatchQueue(label: label) }
  }

  /// Runs `call`, which cancels a task or answers Foundation in a way that may cancel one, on
  /// one of sixteen serial queues kept for cancels, each in turn.
  ///
  /// Not on the thread that needs it made: a delegate callback runs on the work queue itself
  /// (see ``InlineOperationQueue``), where such a call would wait for itself, and cancelling a
  /// task from inside a cancellation handler can deadlock on swift-corelibs-foundation (issue
  /// 5412). Nor on the lanes that start tasks: cancelling a task whose body floods in waits for
  /// the rest of the flood, and every start queued behind it would wait as long. Nobody waits for
  /// a cancel: the call it belongs to has already ended. Nor on one queue: a cancel that waits for
  /// its flood would hold up every other cancel. Nor on a queue made for each cancel: thousands of
  /// cancels at once take every thread libdispatch will make, each waiting for the work queue,
  /// which then has no thread left to run on, and the process hangs.
  func runApart(_ call: @escaping @Sendable () -> Void) {
    condition.lock()
    let lane = cancelLanes[nextCancelLane]
    nextCancelLane = (nextCancelLane + 1) % cancelLanes.count
    condition.unlock()
    lane.async(execute: call)
  }

  /// Counts a task in, before it is created. Returns `true` when it is the only live task of
  /// every client: the caller then creates and resumes it on its own thread, and calls
  /// ``startedHere()`` once through. Otherwise the caller hands the start to
  /// ``startWhenFree(on:_:)``. Every task counted in must be counted out by one ``taskEnded()``.
  ///
  /// Always `true` on Apple's Foundation, whose tasks start without waiting for a queue that a
  /// body keeps busy: the hop would only cost a thread wake-up.
  func countTaskIn() -> Bool {
    #if canImport(FoundationNetworking)
      condition.lock()
      defer { condition.unlock() }
      liveTasks += 1
      guard liveTasks == 1 else { return false }
      isStartingElsewhere = true
    #endif
    return true
  }

  /// Records that the start that ``countTaskIn()`` left to its caller is through.
  func startedHere() {
    #if canImport(FoundationNetworking)
      condition.lock()
      isStartingElsewhere = false
      condition.broadcast()
      condition.unlock()
    #endif
  }

  /// A serial queue for a new session to start its tasks on, when they do not start on their
  /// caller's thread.
  ///
  /// One of sixteen, in turn: a session's burst of requests then holds up the starts of the few
  /// sessions on its own queue only, and however many sessions there are, at most sixteen threads
  /// wait for the work queue to start tasks. A queue for each session would let many clients take
  /// every thread libdispatch makes, as cancels on queues of their own would (see
  /// ``runApart(_:)``).
  func startLane() -> DispatchQueue {
    condition.lock()
    defer { condition.unlock() }
    let lane = startLanes[nextStartLane]
    nextStartLane = (nextStartLane + 1) % startLanes.count
    return lane
  }

  /// Runs `start`, which creates and resumes a task, on `queue` (a ``startLane()``), once no
  /// start on a caller's thread is under way.
  func startWhenFree(on queue: DispatchQueue, _ start: @escaping @Sendable () -> Void) {
    queue.async { [self] in
      condition.lock()
      while isStartingElsewhere { condition.wait() }
      condition.unlock()
      start()
    }
  }

  /// Counts a task out: its session reported it complete, or it was never created.
  func taskEnded() {
    #if canImport(FoundationNetworking)
      condition.lock()
      liveTasks -= 1
      condition.unlock()
    #endif
  }
}
