/// Measuring and waiting in tests of how long calls take.
enum Timing {
  /// The value of `body`, and how long it took.
  static func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
  }

  /// Polls `condition` every 5 ms until it holds or `limit` has passed. Callers assert what
  /// matters afterwards: the wait only gives slow work time to happen, and never hangs a test
  /// whose work never started (a call cancelled before it ran does nothing at all).
  static func poll(atMost limit: Duration = .seconds(10), until condition: () -> Bool) async throws {
    let end = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < end {
      try await Task.sleep(for: .milliseconds(5))
    }
  }
}
