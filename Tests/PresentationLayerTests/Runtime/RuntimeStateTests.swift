import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: state", .timeLimit(.minutes(1)))
struct RuntimeStateTests {
  @Test("immediate effects apply before send returns, in send order: typing a, then ab, shows ab")
  func immediateEffectsInSendOrder() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let recorder = StreamRecorder(viewModel.states)
    viewModel.send(.typed("a"))
    #expect(viewModel.state.query == "a")
    viewModel.send(.typed("ab"))
    #expect(viewModel.state.query == "ab")
    let states = await recorder.waitUntil { $0.last?.query == "ab" }
    #expect(states.map(\.query).removingRepeats() == ["", "a", "ab"])
  }

  @Test("a side effect that leaves the state as it was publishes nothing")
  func onlyChangesArePublished() async {
    let viewModel = ViewModel<CounterFeature>()
    let recorder = StreamRecorder(viewModel.states)
    for count in [1, 1, 2, 2, 2, 1, 3] { viewModel.send(.set(count)) }
    let states = await recorder.waitUntil { $0.last?.count == 3 }
    #expect(states.map(\.count) == [0, 1, 2, 1, 3])
  }

  @Test("concurrent sends and applies lose nothing and reach every observer in one order")
  func concurrentUpdatesKeepOneOrder() async {
    let viewModel = ViewModel<CounterFeature>()
    let first = StreamRecorder(viewModel.states)
    let second = StreamRecorder(viewModel.states)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<20 {
        group.addTask {
          for _ in 0..<50 { viewModel.send(task.isMultiple(of: 2) ? .increment : .bump) }
        }
      }
    }
    let expected = Array(0...1_000)
    #expect(await first.waitUntil { $0.last?.count == 1_000 }.map(\.count) == expected)
    #expect(await second.waitUntil { $0.last?.count == 1_000 }.map(\.count) == expected)
  }

  @Test("a late observer gets the current state first, then every change")
  func lateObserverStartsFromCurrent() async {
    let viewModel = ViewModel<CounterFeature>()
    let early = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.bump)
    let late = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.bump)
    #expect(await early.waitForCount(3).map(\.count) == [0, 1, 2])
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
  func plan(for action: Void, in state: Bool) -> ActionPlan<Self> {
    .run(.merge("flip")) { $0.apply(()) }
  }

  static func reduce(_ state: inout Bool, _ effect: Void) {
    state.toggle()
  }
}

extension Array where Element: Equatable {
  /// The elements without runs of equal neighbours.
  func removingRepeats() -> [Element] {
    reduce(into: []) { result, element in
      if result.last != element { result.append(element) }
    }
  }
}
