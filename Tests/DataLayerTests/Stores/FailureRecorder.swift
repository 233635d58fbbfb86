import DataLayer
import Foundation

/// Collects the ``StorageFailure``s a store reports, from any thread.
final class FailureRecorder: @unchecked Sendable {
  // @unchecked: `recorded` is only touched while holding `lock`. NSLock rather than `Mutex`,
  // which ThreadSanitizer cannot see on Linux.
  private let lock = NSLock()
  private var recorded: [StorageFailure] = []

  var failures: [StorageFailure] { lock.withLock { recorded } }

  var report: @Sendable (StorageFailure) -> Void {
    { [self] failure in lock.withLock { recorded.append(failure) } }
  }
}
