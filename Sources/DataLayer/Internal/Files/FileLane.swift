import Dispatch
import LayeredSupport

/// The one serial queue on which this process touches a given file.
///
/// Every store on the same path shares the lane, so a store created after another one saved
/// reads what was saved (its initial read waits behind the pending writes), and writes to one
/// file never interleave. Lanes for different files are independent: a slow cache write never
/// delays a token write.
///
/// Work runs on a Dispatch queue, never on the Swift concurrency pool, so a slow disk (a
/// `fsync` can take a long time) never ties up a thread that actors and tasks need.
final class FileLane: Sendable {
  private let queue: DispatchQueue

  private init(path: String) {
    queue = DispatchQueue(label: "Layered.FileLane \(path)")
  }

  /// The lane for `path`: the same lane as long as anything still uses it.
  static func lane(for path: String) -> FileLane {
    lanes.withLock { lanes in
      lanes = lanes.filter { $0.value.lane != nil }
      if let lane = lanes[path]?.lane { return lane }
      let lane = FileLane(path: path)
      lanes[path] = WeakLane(lane: lane)
      return lane
    }
  }

  /// Runs `work` after everything already on the lane, without waiting for it.
  func async(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }

  /// Runs `work` after everything already on the lane and returns its result; blocks the
  /// caller until then. Must not be called from work on the same lane.
  func sync<Result: Sendable>(_ work: () -> Result) -> Result {
    queue.sync(execute: work)
  }

  /// Returns once everything put on the lane before this call has finished.
  func drained() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async { continuation.resume() }
    }
  }

  // Weak, so that a lane lives only as long as a store (or a pending write) uses it, and a
  // process that opens many files does not keep a queue for each forever.
  private struct WeakLane {
    weak var lane: FileLane?
  }

  private static let lanes = Locked<[String: WeakLane]>([:])
}
