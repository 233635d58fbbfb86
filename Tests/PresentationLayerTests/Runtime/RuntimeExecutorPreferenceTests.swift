import LayeredTestSupport
import PresentationLayer
import Testing

/// A task that prefers a task executor of its own (a server's event loop, an app's own executor)
/// can be suspended by a call between two pieces of the view model's code that are both isolated
/// to the main actor. A wait that looks at a value and then registers for the next one would miss
/// a change made in between and wait for ever; these tests hold every such wait to looking again
/// where it registers.
@Suite("ViewModel runtime: callers that prefer a task executor of their own", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeExecutorPreferenceTests {
  @Test("observers of the states end on the final state")
  func observersEndOnTheFinalState() async throws {
    for round in 1...150 {
      let viewModel = ViewModel<CounterFeature>()
      let observers = (0..<2).map { _ in
        Task.detached {
          await withTaskExecutorPreference(QueueTaskExecutor.shared) {
            for await state in viewModel.states where state.count == 3 { return true }
            return false
          }
        }
      }
      for _ in 0..<3 {
        viewModel.send(.increment)
        await Task.yield()
      }
      // Ten seconds, which a busy test run is far from using up, before a stuck observer is
      // cancelled and counted as having missed the final state.
      let watchdog = Task {
        try await Task.sleep(for: .seconds(10))
        for observer in observers { observer.cancel() }
      }
      for observer in observers {
        let sawFinalState = await observer.value
        try #require(sawFinalState, "round \(round): an observer missed the final state")
      }
      watchdog.cancel()
    }
  }

  @Test("sendAndWait returns once the work has ended, every time")
  func sendAndWaitReturns() async {
    let viewModel = ViewModel<CounterFeature>()
    await withTaskExecutorPreference(QueueTaskExecutor.shared) {
      for _ in 0..<300 { await viewModel.sendAndWait(.bump) }
    }
    #expect(viewModel.state.count == 300)
  }

  @Test("a test store receives every change and finishes")
  func testStoreReceivesEverything() async {
    let store = TestStore(CounterFeature(), initialState: CounterFeature.State())
    // Driven from off the main actor, as a test that is not isolated to it drives a store.
    await Task.detached {
      await withTaskExecutorPreference(QueueTaskExecutor.shared) {
        for count in 1...300 {
          await store.send(.bump)
          await store.receive { $0.count = count }
        }
        await store.finish()
      }
    }.value
  }
}
