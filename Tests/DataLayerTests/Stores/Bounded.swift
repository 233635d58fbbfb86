import Foundation

/// What a bounded call returned, and how long it took.
struct Finished<Value: Sendable>: Sendable {
  let value: Value
  let seconds: Double
}

/// Runs `body` on a thread of its own and returns its result, or `nil` if it has not returned
/// within `limit` seconds.
///
/// A thread, not a task: a call that hangs (a FIFO opened for reading waits for a writer
/// forever) is left behind on it, so the test fails instead of hanging, and the cooperative pool
/// the other tests run on keeps all its threads.
func finishing<Value: Sendable>(
  within limit: Double, _ body: @escaping @Sendable () -> Value
) async -> Finished<Value>? {
  await withCheckedContinuation { (continuation: CheckedContinuation<Finished<Value>?, Never>) in
    let once = ResumeOnce()
    Thread {
      let start = ContinuousClock.now
      let value = body()
      let elapsed = ContinuousClock.now - start
      let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
      once.run { continuation.resume(returning: Finished(value: value, seconds: seconds)) }
    }.start()
    DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
      once.run { continuation.resume(returning: nil) }
    }
  }
}

/// Runs the first closure it is given, and none after it.
private final class ResumeOnce: @unchecked Sendable {
  // @unchecked: `done` is only touched while holding `lock`.
  private let lock = NSLock()
  private var done = false

  func run(_ body: () -> Void) {
    let first = lock.withLock {
      defer { done = true }
      return !done
    }
    if first { body() }
  }
}
