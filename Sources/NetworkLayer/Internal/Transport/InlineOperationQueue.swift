import Foundation

/// An operation queue that runs every operation at once, on the thread that adds it.
///
/// swift-corelibs-foundation delivers each delegate callback by adding an operation to the
/// session's delegate queue; on any real queue that is a thread wake-up per callback, three or
/// more a request, where `data(for:)` has its completion handler called inline (the performance
/// article has the cost). With this queue the callbacks run on
/// Foundation's own work queue, as `data(for:)`'s does, and a request costs what `data(for:)`
/// costs.
///
/// That is safe only for a delegate that keeps two rules, which ``Transfer`` does:
/// - a callback never blocks and never waits for another thread: it updates a little state under
///   a lock and resumes a continuation;
/// - a callback never calls back into its task or session synchronously (`cancel()` or a
///   completion handler that cancels): those wait for the very work queue the callback runs on.
///   Such calls go to a queue of ``URLSessionCallQueues``.
final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
  override func addOperation(_ block: @escaping @Sendable () -> Void) {
    block()
  }

  override func addOperation(_ operation: Operation) {
    operation.start()
  }

  override func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
    for operation in operations { operation.start() }
  }
}
