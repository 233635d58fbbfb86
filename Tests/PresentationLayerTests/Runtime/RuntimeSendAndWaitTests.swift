import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: sendAndWait", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeSendAndWaitTests {
  @Test("returns after the immediate effects of an action without work, and after the work of one with")
  func waitsForTheWork() async {
    let viewModel = ViewModel<CounterFeature>()
    await viewModel.sendAndWait(.increment)
    #expect(viewModel.state.count == 1)
    await viewModel.sendAndWait(.bump)
    #expect(viewModel.state.count == 2)
  }

  @Test("returns at once for a dropped action")
  func droppedReturnsAtOnce() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.logIn)
    await backend.waitFor(.started("login"))
    // Were it to wait for the login in flight, this would hang until the time limit.
    await viewModel.sendAndWait(.logIn)
    #expect(viewModel.state.logInTaps == 1)
    #expect(backend.count(of: .returned("login")) == 0)
  }

  @Test("returns once a superseded action is cancelled, even if its operation runs on")
  func supersededReturnsOnceCancelled() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend, searchesIgnoreCancellation: true)
    let waiting = Task { await viewModel.sendAndWait(.typed("a")) }
    await backend.waitFor(.started("search a"))
    viewModel.send(.typed("ab"))
    await waiting.value
    #expect(backend.count(of: .returned("search a")) == 0, "the superseded search is still waiting")
  }

  @Test("waits for a queued action's turn and then for its completion")
  func queuedWaitsForTurnAndCompletion() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let states = StreamRecorder(viewModel.states)
    viewModel.send(.save("1"))
    await backend.waitFor(.started("save 1"))
    let waiting = Task {
      await viewModel.sendAndWait(.save("2"))
      backend.note(.mark("wait for save 2 returned"))
    }
    await states.waitUntil { $0.last?.pendingSaves == ["1", "2"] }
    backend.answer("save 2")
    backend.answer("save 1")
    await waiting.value
    let journal = await backend.waitFor(.mark("wait for save 2 returned"))
    let order = [
      Note.returned("save 1"), .started("save 2"), .returned("save 2"), .mark("wait for save 2 returned"),
    ]
    #expect(journal.filter(order.contains) == order)
  }

  @Test("waits for the work of both plans of an action made of two")
  func waitsForCombinedPlans() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let waiting = Task {
      await viewModel.sendAndWait(.both(.typed("a"), .save("a")))
      backend.note(.mark("wait returned"))
    }
    await backend.waitFor(.started("search a"))
    await backend.waitFor(.started("save a"))
    #expect(viewModel.state.query == "a")
    #expect(viewModel.state.pendingSaves == ["a"])
    backend.answer("search a")
    await backend.waitFor(.returned("search a"))
    backend.answer("save a")
    await waiting.value
    let journal = await backend.waitFor(.mark("wait returned"))
    let order = [Note.returned("search a"), .returned("save a"), .mark("wait returned")]
    #expect(journal.filter(order.contains) == order)
  }

  @Test("cancelling the waiting task stops the wait, not the work")
  func cancellingTheWaiterLeavesTheWork() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let waiting = Task { await viewModel.sendAndWait(.save("1")) }
    await backend.waitFor(.started("save 1"))
    waiting.cancel()
    await waiting.value
    backend.answer("save 1")
    await backend.waitFor(.returned("save 1"))
    #expect(backend.count(of: .cancelled("save 1")) == 0)
    #expect(viewModel.state.saved == ["1"])
  }
}
