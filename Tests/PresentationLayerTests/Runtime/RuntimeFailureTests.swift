import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: failures", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeFailureTests {
  @Test(
    "after any number of failed operations the next action still works",
    arguments: [
      InFlightPolicy<SearchFeature.Lane>.merge(.load), .latest(.load), .dropWhileBusy(.load), .queue(.load),
    ]
  )
  func inputSurvivesFailures(policy: InFlightPolicy<SearchFeature.Lane>) async {
    let backend = ScriptedBackend()
    let store = TestStore(SearchFeature(backend: backend), initialState: SearchFeature.State())
    let failures: [ToyFailure] = [.offline, .server(status: 500), .timeout, .server(status: 503)]
    for (attempt, failure) in failures.enumerated() {
      backend.answer("load \(attempt)", with: .failure(failure))
      let work = store.send(.load("load \(attempt)", policy)) { $0.load = .loading }
      await store.receive { $0.load = .failed(failure.message) }
      // Until the view model has seen the work end, drop-while-busy would drop the next load.
      await work.finish()
    }
    backend.answer("load 4", with: .success(["fresh"]))
    store.send(.load("load 4", policy)) { $0.load = .loading }
    await store.receive { $0.load = .loaded(["fresh"]) }
    await store.finish()
  }

  @Test("failures in flight side by side do not stop the next action either")
  func concurrentFailures() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    await withTaskGroup(of: Void.self) { group in
      for attempt in 0..<10 {
        group.addTask { await viewModel.sendAndWait(.load("load \(attempt)", .merge(.load))) }
      }
      for attempt in 0..<10 { await backend.waitFor(.started("load \(attempt)")) }
      for attempt in 0..<10 { backend.answer("load \(attempt)", with: .failure(.offline)) }
    }
    #expect(viewModel.state.load == .failed(ToyFailure.offline.message))
    backend.answer("retry", with: .success(["fresh"]))
    // Drop-while-busy would drop the retry if any failed work still held the lane.
    await viewModel.sendAndWait(.load("retry", .dropWhileBusy(.load)))
    #expect(viewModel.state.load == .loaded(["fresh"]))
  }
}
