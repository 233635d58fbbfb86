import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: cancellation and lifetime", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeLifetimeTests {
  @Test(
    "releasing the view model deinitialises it despite suspended work, cancels the work, ends the streams"
  )
  func releaseCancelsWork() async {
    let backend = ScriptedBackend()
    var viewModel: ViewModel<SearchFeature>? = ViewModel(backend: backend)
    weak let weakViewModel = viewModel
    let states = viewModel.map { StreamRecorder($0.states) }
    let events = viewModel.map { StreamRecorder($0.events) }
    // Waits on a continuation that only cancellation resumes.
    viewModel?.send(.probe("forever"))
    await backend.waitFor(.started("forever"))
    viewModel = nil
    #expect(weakViewModel == nil, "in-flight work must not keep the view model alive")
    await backend.waitFor(.cancelled("forever"))
    await backend.waitFor(.observed("forever", query: nil))
    #expect(await states?.waitUntil { _ in false } == [SearchFeature.State()])
    #expect(await events?.waitUntil { _ in false }.isEmpty == true)
  }

  @Test("releasing the view model cancels running work, and queued work never starts")
  func releaseCancelsQueue() async {
    let backend = ScriptedBackend()
    var viewModel: ViewModel<SearchFeature>? = ViewModel(backend: backend)
    weak let weakViewModel = viewModel
    viewModel?.send(.save("1"))
    viewModel?.send(.save("2"))
    await backend.waitFor(.started("save 1"))
    viewModel = nil
    #expect(weakViewModel == nil)
    await backend.waitFor(.returned("save 1"))
    #expect(backend.count(of: .cancelled("save 1")) == 1)
    #expect(backend.count(of: .started("save 2")) == 0)
  }

  @Test("cancel() cancels all work, ends every stream, and later actions are ignored")
  func cancelEndsEverything() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let states = StreamRecorder(viewModel.states)
    let events = StreamRecorder(viewModel.events)
    viewModel.send(.probe("forever"))
    viewModel.send(.save("1"))
    await backend.waitFor(.started("forever"))
    await backend.waitFor(.started("save 1"))
    viewModel.cancel()
    await backend.waitFor(.cancelled("forever"))
    await backend.waitFor(.cancelled("save 1"))
    var saving = SearchFeature.State()
    saving.pendingSaves = ["1"]
    // Conflated: the observer may have missed the first state, never the final one.
    #expect(await states.waitUntil { _ in false }.last == saving)
    #expect(await events.waitUntil { _ in false }.isEmpty)

    viewModel.send(.typed("ignored"))
    await viewModel.sendAndWait(.logIn)
    #expect(viewModel.state == saving)
    #expect(await StreamRecorder(viewModel.states).waitUntil { _ in false } == [saving])
    #expect(await StreamRecorder(viewModel.events).waitUntil { _ in false }.isEmpty)
    #expect(backend.count(of: .started("search ignored")) == 0)
    #expect(backend.count(of: .started("login")) == 0)
  }

  @Test("observers cancelled while states and events are being published never deadlock the view model")
  func cancellingObserversMidPublishDoesNotDeadlock() async {
    // Regression: publishing resumed observers under a lock that their streams' termination
    // handlers take, and cancelling an observer holds a runtime lock that resuming it needs, so
    // an observer cancelled mid-publish deadlocked both threads (nearly every run of this test).
    for _ in 0..<600 {
      let viewModel = ViewModel<CounterFeature>()
      let states = viewModel.states
      let events = viewModel.events
      let observers = [Task { for await _ in states {} }, Task { for await _ in events {} }]
      let publisher = Task { @MainActor in
        for index in 0..<100 {
          viewModel.send(.increment)
          if index.isMultiple(of: 10) { viewModel.send(.announce("\(index)")) }
        }
      }
      for _ in 0..<3 { await Task.yield() }
      for observer in observers { observer.cancel() }
      await publisher.value
      for observer in observers { await observer.value }
    }
  }
}
