import LayeredTestSupport
import PresentationLayer
import Testing

/// Debounce, throttle and work that waits, on a clock the test moves: nothing here sleeps.
@Suite("ViewModel runtime: time-based policies on the view model's clock", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeTimeTests {
  private let backend = ScriptedBackend()
  private let debounce = InFlightPolicy<SearchFeature.Lane>.debounce(.load, for: .milliseconds(300))

  private func store() -> TestStore<SearchFeature> {
    TestStore(SearchFeature(backend: backend), initialState: SearchFeature.State())
  }

  @Test("debounce starts the work only once the lane has been quiet for the interval")
  func debounceWaitsForQuiet() async throws {
    let store = store()
    store.send(.load("a", debounce)) { $0.load = .loading }
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: .milliseconds(299))
    #expect(store.clock.sleeperCount == 1, "still waiting: the work has not started")
    await store.advance(by: .milliseconds(1))
    await backend.waitFor(.started("a"))
    backend.answer("a", with: .success(["x"]))
    await store.receive { $0.load = .loaded(["x"]) }
    await store.finish()
  }

  @Test("each action in a debounced lane cancels the waiting one and waits the whole interval again")
  func debounceRestartsTheWait() async throws {
    let store = store()
    store.send(.load("l", debounce)) { $0.load = .loading }
    for query in ["la", "lay", "laye", "layer", "layere", "layered"] {
      await store.advance(by: .milliseconds(200))
      store.send(.load(query, debounce))
    }
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: .milliseconds(300))
    await backend.waitFor(.started("layered"))
    backend.answer("layered", with: .success(["found"]))
    await store.receive { $0.load = .loaded(["found"]) }
    await store.finish()
    let started = ["l", "la", "lay", "laye", "layer", "layere", "layered"].map {
      backend.count(of: .started($0))
    }
    #expect(started == [0, 0, 0, 0, 0, 0, 1], "seven actions, one request: the last")
  }

  @Test("throttle starts at once, holds the last action sent within the interval, and drops the rest")
  func throttleKeepsLatest() async throws {
    let store = store()
    let throttle = InFlightPolicy<SearchFeature.Lane>.throttle(.load, every: .seconds(1))
    store.send(.load("a", throttle)) { $0.load = .loading }
    await backend.waitFor(.started("a"))
    store.send(.load("b", throttle))
    store.send(.load("c", throttle))
    backend.answer("a", with: .success(["a"]))
    await store.receive { $0.load = .loaded(["a"]) }
    #expect(backend.count(of: .started("c")) == 0, "held until the interval ends")
    await store.advance(by: .seconds(1))
    await backend.waitFor(.started("c"))
    backend.answer("c", with: .success(["c"]))
    await store.receive { $0.load = .loaded(["c"]) }
    await store.finish()
    #expect(backend.count(of: .started("b")) == 0)
  }

  @Test("throttle with latest false holds the first action sent within the interval")
  func throttleKeepsFirst() async throws {
    let store = store()
    let throttle = InFlightPolicy<SearchFeature.Lane>.throttle(.load, every: .seconds(1), latest: false)
    store.send(.load("a", throttle)) { $0.load = .loading }
    store.send(.load("b", throttle))
    store.send(.load("c", throttle))
    await backend.waitFor(.started("a"))
    backend.answer("a", with: .success(["a"]))
    await store.receive { $0.load = .loaded(["a"]) }
    await store.advance(by: .seconds(1))
    await backend.waitFor(.started("b"))
    backend.answer("b", with: .success(["b"]))
    await store.receive { $0.load = .loaded(["b"]) }
    await store.finish()
    #expect(backend.count(of: .started("c")) == 0)
  }

  @Test("a throttled lane idle for a whole interval starts the next action at once")
  func throttleAfterQuiet() async throws {
    let store = store()
    let throttle = InFlightPolicy<SearchFeature.Lane>.throttle(.load, every: .seconds(1))
    store.send(.load("a", throttle)) { $0.load = .loading }
    await backend.waitFor(.started("a"))
    backend.answer("a", with: .success(["a"]))
    await store.receive { $0.load = .loaded(["a"]) }
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: .seconds(1))
    try await waitUntil { store.clock.sleeperCount == 0 }
    store.send(.load("b", throttle)) { $0.load = .loading }
    await backend.waitFor(.started("b"))
    backend.answer("b", with: .success(["b"]))
    await store.receive { $0.load = .loaded(["b"]) }
    await store.finish()
  }

  @Test("cancelling the view model drops the work a throttled lane holds and the debounce that waits")
  func cancelDropsWaitingWork() async throws {
    let clock = TestClock()
    let viewModel = ViewModel(SearchFeature(backend: backend), initialState: .init(), clock: clock)
    let throttle = InFlightPolicy<SearchFeature.Lane>.throttle(.load, every: .seconds(1))
    viewModel.send(.load("a", throttle))
    viewModel.send(.load("b", throttle))
    viewModel.send(.load("d", .debounce(.search, for: .seconds(1))))
    await backend.waitFor(.started("a"))
    try await clock.waitForSleepers(count: 2)
    viewModel.cancel()
    // The interval's timer and the debounce's wait both stop sleeping without any advance.
    try await waitUntil { clock.sleeperCount == 0 }
    await backend.waitFor(.cancelled("a"))
    #expect(!viewModel.hasLiveWork)
    clock.advance(by: .seconds(5))
    #expect(backend.count(of: .started("b")) == 0)
    #expect(backend.count(of: .started("d")) == 0)
  }

  @Test("work that sleeps on the effects' clock wakes when the test moves time, not before")
  func workSleepsOnTheClock() async throws {
    let store = store()
    store.send(.flash("Saved")) { $0.message = "Saved" }
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: .milliseconds(1_999))
    #expect(store.state.message == "Saved")
    await store.advance(by: .milliseconds(1))
    await store.receive { $0.message = nil }
    await store.finish()
  }

  /// Returns once `condition` holds, checking after each turn of the main actor.
  private func waitUntil(_ condition: () -> Bool) async throws {
    while !condition() {
      try Task.checkCancellation()
      await Task.yield()
    }
  }
}
