import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: events", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeEventTests {
  @Test("every listener gets the events emitted while it listens, and a late one gets no replay")
  func noReplay() async {
    let viewModel = ViewModel<CounterFeature>()
    let early = StreamRecorder(viewModel.events)
    await viewModel.sendAndWait(.announce("first"))
    let late = StreamRecorder(viewModel.events)
    await viewModel.sendAndWait(.announce("second"))
    #expect(await early.waitForCount(2) == [.said("first"), .said("second")])
    #expect(await late.waitForCount(1) == [.said("second")])
  }

  @Test("events emitted concurrently reach every listener, all of them, in one order")
  func concurrentEventsReachEveryone() async {
    let viewModel = ViewModel<CounterFeature>()
    let listeners = (0..<3).map { _ in StreamRecorder(viewModel.events) }
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 { group.addTask { await viewModel.sendAndWait(.announce("\(index)")) } }
    }
    let heard = await [
      listeners[0].waitForCount(100), listeners[1].waitForCount(100), listeners[2].waitForCount(100),
    ]
    #expect(Set(heard[0]) == Set((0..<100).map { CounterFeature.Event.said("\($0)") }))
    #expect(heard[0].count == 100)
    #expect(heard[1] == heard[0])
    #expect(heard[2] == heard[0])
  }
}
