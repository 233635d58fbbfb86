import Testing

/// Measuring and waiting in tests of how long calls take.
enum Timing {
  /// The value of `body`, and how long it took.
  static func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try await body()
    return (value, ContinuousClock.now - start)
  }

  /// Polls `condition` every 5 ms until it holds, and fails the test if `limit` passes first. What
  /// a test waits for is what it goes on from: a wait that ran out silently would let it go on
  /// from a state it never reached, and fail, or pass, for a reason that is not the one it
  /// states. It never hangs a test whose work never started.
  static func poll(
    atMost limit: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    until condition: () -> Bool
  ) async throws {
    let end = ContinuousClock.now + limit
    while !condition(), ContinuousClock.now < end {
      try await Task.sleep(for: .milliseconds(5))
    }
    try #require(
      condition(), "what the test waited for did not happen within \(limit)", sourceLocation: sourceLocation)
  }
}
