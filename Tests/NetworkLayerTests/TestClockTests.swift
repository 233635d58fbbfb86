import LayeredTestSupport
import Testing

@Suite("Test clock", .timeLimit(.minutes(1)))
struct TestClockTests {
  private func sleeper(_ clock: TestClock, for duration: Duration) -> Task<Void, any Error> {
    let deadline = clock.now.advanced(by: duration)
    return Task { try await clock.sleep(until: deadline) }
  }

  @Test("a sleep returns only once an advance reaches its deadline")
  func sleepUntilAdvance() async throws {
    let clock = TestClock()
    let task = sleeper(clock, for: .seconds(5))
    try await clock.waitForSleepers(count: 1)

    clock.advance(by: .seconds(4))
    #expect(clock.sleeperCount == 1, "four seconds do not reach a five-second deadline")

    clock.advance(by: .seconds(1))
    try await task.value
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
  }

  @Test("a sleep whose deadline has been reached returns without an advance")
  func reachedDeadline() async throws {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    try await clock.sleep(until: clock.now)
    try await clock.sleep(until: TestClock.Instant(offset: .seconds(3)))
    try await clock.sleep(for: .zero)
    #expect(clock.sleeperCount == 0)
  }

  @Test("cancelling a sleeping task makes its sleep throw at once, with no advance")
  func cancelWhileSleeping() async throws {
    let clock = TestClock()
    let task = sleeper(clock, for: .seconds(3_600))
    try await clock.waitForSleepers(count: 1)

    // Nothing advances the clock: the sleep can only end through its cancellation, and a sleep
    // that ignored it would hold the test until the suite's time limit.
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == TestClock.Instant())
  }

  @Test("a task cancelled before it sleeps throws without sleeping")
  func cancelledBeforeSleeping() async {
    let clock = TestClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(clock.sleeperCount == 0)
  }

  @Test("sleepers wake in deadline order, each only when its own deadline is reached")
  func deadlineOrder() async throws {
    let clock = TestClock()
    let third = sleeper(clock, for: .seconds(3))
    let first = sleeper(clock, for: .seconds(1))
    let second = sleeper(clock, for: .seconds(2))
    try await clock.waitForSleepers(count: 3)

    clock.advance(by: .seconds(1))
    try await first.value
    #expect(clock.sleeperCount == 2)

    clock.advance(by: .seconds(1))
    try await second.value
    #expect(clock.sleeperCount == 1)

    clock.advance(by: .seconds(1))
    try await third.value
    #expect(clock.sleeperCount == 0)
  }

  @Test("one advance past every deadline wakes every sleeper")
  func advancePastAll() async throws {
    let clock = TestClock()
    let tasks = (1...5).map { sleeper(clock, for: .seconds($0)) }
    try await clock.waitForSleepers(count: 5)

    clock.advance(to: TestClock.Instant(offset: .seconds(60)))
    for task in tasks {
      try await task.value
    }
    #expect(clock.sleeperCount == 0)
  }

  @Test("time never moves backwards")
  func noTimeTravel() {
    let clock = TestClock(now: TestClock.Instant(offset: .seconds(10)))
    clock.advance(to: TestClock.Instant(offset: .seconds(4)))
    clock.advance(by: .seconds(-3))
    #expect(clock.now == TestClock.Instant(offset: .seconds(10)))
  }

  @Test("waiting for sleepers can be cancelled")
  func cancelWaitForSleepers() async {
    let clock = TestClock()
    let waiter = Task { try await clock.waitForSleepers(count: 1) }
    waiter.cancel()
    await #expect(throws: CancellationError.self) { try await waiter.value }
  }
}
