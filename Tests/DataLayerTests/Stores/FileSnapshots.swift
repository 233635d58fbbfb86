import Foundation

/// What a reader saw of one file while others wrote it: every distinct content, and whether the
/// file ever went missing after it had existed.
struct FileSnapshots: Sendable {
  private(set) var contents: Set<Data> = []
  private(set) var vanished = false

  /// Runs every write at once, each in its own task, while a reader on a thread of its own reads
  /// `url` as fast as it can; returns what the reader saw once the writes are done and `settle`
  /// (which waits for the disk) has returned.
  ///
  /// The reader has its own thread, not a task, so that it really runs alongside the writers
  /// instead of taking turns with them on the cooperative pool.
  static func reading(
    _ url: URL, during writes: [@Sendable () -> Void], settle: @Sendable () async -> Void
  ) async -> FileSnapshots {
    let stop = StopSignal()
    let reader = Task {
      await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: collect(url, until: stop)) }.start()
      }
    }
    await withTaskGroup(of: Void.self) { writers in
      for write in writes {
        writers.addTask(operation: write)
      }
    }
    await settle()
    stop.raise()
    return await reader.value
  }

  // Decoding waits until the race is over, so that reads come as close together as possible.
  private static func collect(_ url: URL, until stop: StopSignal) -> FileSnapshots {
    var snapshots = FileSnapshots()
    repeat {
      if let data = try? Data(contentsOf: url) {
        snapshots.contents.insert(data)
      } else if !snapshots.contents.isEmpty {
        snapshots.vanished = true
      }
    } while !stop.isRaised
    return snapshots
  }
}

/// A flag one thread raises and another polls.
private final class StopSignal: @unchecked Sendable {
  // @unchecked: `raised` is only touched while holding `lock`.
  private let lock = NSLock()
  private var raised = false

  var isRaised: Bool { lock.withLock { raised } }

  func raise() { lock.withLock { raised = true } }
}
