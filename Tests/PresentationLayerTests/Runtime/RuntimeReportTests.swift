import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

/// `Effects.follow` hands each outcome to the view model without waiting for the main actor; the
/// view model delivers them there. These tests hold that fast path to the guarantees of the
/// path that awaits every step.
@Suite("ViewModel runtime: outcomes handed over without waiting", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeReportTests {
  @Test("outcomes arrive in the stream's order, each as one state, events between them")
  func outcomesArriveInOrder() async {
    let store = TestStore(ReportingFeature(), initialState: ReportingFeature.State())
    store.send(.follow([.success(1), .failure(.offline), .success(2), .success(3)]))
    await store.receive { $0.values = [1] }
    await store.receive { $0.failures = 1 }
    await store.receive(event: .failed(.offline))
    await store.receive { $0.values = [1, 2] }
    await store.receive { $0.values = [1, 2, 3] }
    await store.finish()
  }

  @Test("sendAndWait returns only once every outcome the work followed is in the state")
  func sendAndWaitSeesEveryOutcome() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    for round in 0..<50 {
      await viewModel.sendAndWait(.follow([.success(round), .success(round + 1000)]))
      #expect(viewModel.state.values.suffix(2) == [round, round + 1000])
    }
    #expect(viewModel.state.values.count == 100)
  }

  @Test("a burst of outcomes, then small ones, each arrive whole and in order")
  func burstsArriveWhole() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    await viewModel.sendAndWait(.follow((0..<300).map { .success($0) }))
    #expect(viewModel.state.values == Array(0..<300))
    for round in 0..<3 {
      await viewModel.sendAndWait(.follow([.success(1000 + round), .success(2000 + round)]))
    }
    #expect(viewModel.state.values.suffix(6) == [1000, 2000, 1001, 2001, 1002, 2002])
    #expect(!viewModel.hasLiveWork)
  }

  @Test("callers waiting at the same time all return, each with its work's outcomes delivered")
  func concurrentWaitersAllReturn() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    let waiters = (0..<20).map { value in
      Task {
        await viewModel.sendAndWait(.follow([.success(value)]))
        return viewModel.state.values.contains(value)
      }
    }
    for waiter in waiters { #expect(await waiter.value) }
    #expect(viewModel.state.values.sorted() == Array(0..<20))
    #expect(!viewModel.hasLiveWork)
  }

  @Test("work runs at the priority of the task that sent its action")
  func workRunsAtTheSendersPriority() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    for priority in [TaskPriority.background, .utility, .high] {
      // Awaiting the sender's value would raise its priority to this task's; a continuation
      // does not.
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Task(priority: priority) {
          await viewModel.sendAndWait(.reportPriority)
          done.resume()
        }
      }
      #expect(viewModel.state.values.last == Int(priority.rawValue), "sent at \(priority)")
    }
  }

  @Test("work runs off the main queue, though its action was sent on the main actor")
  func workRunsOffTheMainQueue() async {
    MainQueue.mark()
    #expect(MainQueue.isCurrent, "the main actor runs on the main queue")
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    await viewModel.sendAndWait(.reportMainQueue)
    #expect(viewModel.state.values == [0])
  }

  @Test("work sees the task-local values of the task that sent its action, and only those")
  func workSeesTheSendersTaskLocals() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    await SenderValue.$current.withValue(42) {
      await viewModel.sendAndWait(.reportTaskLocal)
    }
    await viewModel.sendAndWait(.reportTaskLocal)
    #expect(viewModel.state.values == [42, 0])
  }

  @Test("a caller waiting at a lower priority than other work still returns once its outcome is in")
  func lowPriorityWaiterAmongHigherPriorityWork() async {
    let viewModel = ViewModel(ReportingFeature(), initialState: ReportingFeature.State())
    let waiters = (0..<10).map { value in
      Task(priority: .background) {
        await viewModel.sendAndWait(.follow([.success(value)]))
        return viewModel.state.values.contains(value)
      }
    }
    // Work sent at a higher priority reports while the background callers wait; they must not
    // be the ones that deliver it, and must still be woken for their own.
    let busy = Task(priority: .high) {
      for value in 100..<150 { viewModel.send(.follow([.success(value)])) }
    }
    await busy.value
    for waiter in waiters { #expect(await waiter.value) }
    while viewModel.hasLiveWork { await Task.yield() }
    #expect(viewModel.state.values.sorted() == Array(0..<10) + Array(100..<150))
  }

  @Test(
    "an observer of the states waiting when work reports takes the outcome, and the outcome still lands when that observer is cancelled as it is woken"
  )
  func waitingObserversTakeTheOutcome() async throws {
    let feature = ReportingFeature()
    let viewModel = ViewModel(feature, initialState: ReportingFeature.State())
    for round in 1...24 {
      // On the main actor and off it, each kept to the end or cancelled around the moment the
      // work reports; every observer is waiting for a new state by then.
      let isOffMain = round % 4 >= 2
      let isCancelled = round.isMultiple(of: 2)
      let observer =
        isOffMain
        ? Task.detached { await Self.waitForValue(round, in: viewModel.states) }
        : Task { await Self.waitForValue(round, in: viewModel.states) }
      viewModel.send(.load(round))
      await feature.backend.waitFor(.started("load \(round)"))
      await Task.yield()
      feature.backend.answer("load \(round)")
      if isCancelled { observer.cancel() }
      // An observer that never gets the outcome would wait for ever; it is given ten seconds,
      // which a busy test run's cooperative pool is far from using up.
      let watchdog = Task {
        try await Task.sleep(for: .seconds(10))
        observer.cancel()
      }
      let sawOutcome = await observer.value
      watchdog.cancel()
      try #require(sawOutcome || isCancelled, "round \(round): the observer missed the outcome")
      await feature.backend.waitFor(.returned("load \(round)"))
      try #require(await Self.settles(viewModel), "round \(round): the work's reports were never delivered")
      #expect(viewModel.state.values.last == round)
    }
  }

  /// Whether `states` reaches a state whose last value is `value` before it ends.
  private nonisolated static func waitForValue(
    _ value: Int, in states: StateStream<ReportingFeature.State>
  ) async -> Bool {
    for await state in states where state.values.last == value { return true }
    return false
  }

  /// Whether all of `viewModel`'s work has ended, its reports delivered, within ten seconds.
  private static func settles(_ viewModel: ViewModel<ReportingFeature>) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while viewModel.hasLiveWork {
      guard ContinuousClock.now < deadline else { return false }
      await Task.yield()
    }
    return true
  }

  @Test("what the work reads or applies after following comes after every outcome it followed")
  func laterCallsSeeTheOutcomes() async {
    let store = TestStore(ReportingFeature(), initialState: ReportingFeature.State())
    store.send(.followThenRead([.success(1), .success(2)]))
    await store.receive { $0.values = [1] }
    await store.receive { $0.values = [1, 2] }
    await store.receive { $0.readBack = [2] }
    await store.finish()
  }

  @Test("a superseded work's outcome, handed over after it was superseded, changes nothing")
  func supersededOutcomeIsDropped() async {
    let feature = ReportingFeature()
    let store = TestStore(feature, initialState: ReportingFeature.State())
    store.send(.load(1))
    await feature.backend.waitFor(.started("load 1"))
    store.send(.load(2))
    await feature.backend.waitFor(.started("load 2"))
    // The first load ignores its cancellation and hands its outcome over; the second one's
    // comes after it, so the store would see the first one's state first if it were applied.
    feature.backend.answer("load 1")
    await feature.backend.waitFor(.returned("load 1"))
    feature.backend.answer("load 2")
    await store.receive { $0.values = [2] }
    await store.finish()
  }
}
