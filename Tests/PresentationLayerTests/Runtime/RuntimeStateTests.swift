import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: state", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeStateTests {
  @Test("immediate effects apply before send returns, in send order: typing a, then ab, shows ab")
  func immediateEffectsInSendOrder() async {
    let store = TestStore(SearchFeature(backend: ScriptedBackend()), initialState: SearchFeature.State())
    store.send(.typed("a")) { $0.query = "a" }
    #expect(store.viewModel.state.query == "a")
    store.send(.typed("ab")) { $0.query = "ab" }
    #expect(store.viewModel.state.query == "ab")
    store.viewModel.cancel()
    await store.finish()
  }

  @Test("a side effect that leaves the state as it was publishes nothing")
  func onlyChangesArePublished() async {
    let store = TestStore(CounterFeature(), initialState: CounterFeature.State())
    store.send(.set(1)) { $0.count = 1 }
    store.send(.set(1))
    store.send(.set(2)) { $0.count = 2 }
    store.send(.set(2))
    store.send(.set(1)) { $0.count = 1 }
    await store.finish()
  }

  @Test("each observer of a burst of sends sees only newer states and ends on the final one")
  func conflatedObserversEndOnFinalState() async {
    let viewModel = ViewModel<CounterFeature>()
    let observers = (0..<3).map { _ in StreamRecorder(viewModel.states) }
    for _ in 0..<10_000 { viewModel.send(.increment) }
    for observer in observers {
      let seen = await observer.waitUntil { $0.last?.count == 10_000 }.map(\.count)
      #expect(seen.last == 10_000)
      #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "never a stale state, never a repeat")
    }
  }

  @Test("work applied from many tasks at once loses nothing, and every observer ends on the final state")
  func concurrentWorkLosesNothing() async {
    let viewModel = ViewModel<CounterFeature>()
    let observers = (0..<3).map { _ in StreamRecorder(viewModel.states) }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<500 { group.addTask { await viewModel.sendAndWait(.bump) } }
    }
    #expect(viewModel.state.count == 500)
    viewModel.cancel()
    for observer in observers {
      #expect(await observer.waitUntil { _ in false }.last?.count == 500, "ends on the final state")
    }
  }

  @Test("an observer that is behind when the view model ends still gets the final state before the end")
  func endedObserverGetsFinalState() async {
    let viewModel = ViewModel<CounterFeature>()
    var states = viewModel.states.makeAsyncIterator()
    #expect(await states.next()?.count == 0)
    viewModel.send(.set(7))
    viewModel.send(.set(8))
    viewModel.cancel()
    #expect(await states.next()?.count == 8)
    #expect(await states.next() == nil)
  }

  @Test("a late observer gets the current state first, then the changes")
  func lateObserverStartsFromCurrent() async {
    let viewModel = ViewModel<CounterFeature>()
    await viewModel.sendAndWait(.bump)
    let late = StreamRecorder(viewModel.states)
    #expect(await late.waitForCount(1).map(\.count) == [1])
    await viewModel.sendAndWait(.bump)
    #expect(await late.waitForCount(2).map(\.count) == [1, 2])
  }

  @Test("an operation reads the state as it is now, not as it was when its action was sent")
  func effectsReadCurrentState() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.probe("probe"))
    await backend.waitFor(.started("probe"))
    viewModel.send(.typed("typed meanwhile"))
    backend.answer("probe")
    await backend.waitFor(.observed("probe", query: "typed meanwhile"))
  }

  @Test("a feature without events needs no Event type")
  func featureWithoutEvents() async {
    let viewModel = ViewModel(Switch(), initialState: false)
    await viewModel.sendAndWait(())
    #expect(viewModel.state)
  }
}

/// A feature that declares no `Event`: it defaults to `Never`.
private struct Switch: Feature {
  enum Lane: Hashable {
    case flip
  }

  func plan(for action: Void, in state: Bool) -> ActionPlan<Self> {
    .run(.merge(.flip)) { await $0.apply(()) }
  }

  static func reduce(_ state: inout Bool, _ effect: Void) {
    state.toggle()
  }
}
