import PresentationLayer

/// send → reduce → 3 observers that each end on the final state, next to a plain callback subject
/// (send → reduce → 3 subscribers called in turn) measured in the same run, in interleaved rounds.
struct ViewModelScenario: BenchmarkScenario {
  let name = "viewmodel"
  let actionsPerRound = 200_000
  let rounds = 9
  let observers = 3

  @MainActor
  func run() async {
    await compare(actions: actionsPerRound, pacing: nil)
    // The burst above is the best case for conflation: the observers wake a few times a round
    // and skip almost every state. Yielding the main actor after each action lets them run
    // between sends, as they do when actions come from a person, so many more states are
    // delivered.
    await compare(actions: actionsPerRound / 10, pacing: 1)
  }

  /// Interleaved rounds of the view model and the callback subject; `pacing` yields the main
  /// actor after that many actions.
  @MainActor
  private func compare(actions: Int, pacing: Int?) async {
    let how = pacing.map { "yielding the main actor every \($0) action(s)" } ?? "in one burst"
    print("viewmodel: \(actions) actions per round \(how), \(observers) observers, \(rounds) rounds")
    // One warm-up round of each, not counted.
    _ = await viewModelRound(actions: actions, pacing: pacing)
    _ = await callbackRound(actions: actions, pacing: pacing)
    var viewModelRates = Rates()
    var callbackRates = Rates()
    var delivered: [Int] = []
    for _ in 0..<rounds {
      let round = await viewModelRound(actions: actions, pacing: pacing)
      viewModelRates.record(operations: actions, in: round.elapsed)
      delivered.append(round.statesSeen)
      callbackRates.record(operations: actions, in: await callbackRound(actions: actions, pacing: pacing))
    }
    print("  ViewModel (send → reduce → \(observers) conflated observers): \(viewModelRates.summary)")
    print("  callback subject (send → reduce → \(observers) subscribers):  \(callbackRates.summary)")
    let ratio = viewModelRates.median / callbackRates.median
    print("  median ratio ViewModel / callback subject: \(String(Int((ratio * 100).rounded()))) %")
    print(
      "  states one observer saw in a round (median): \(delivered.sorted()[delivered.count / 2]) of \(actions)"
    )
  }

  /// Sends every action on the main actor; ends when every observer has seen the final state.
  /// Also returns how many states the first observer saw.
  @MainActor
  private func viewModelRound(actions target: Int, pacing: Int?) async -> (elapsed: Duration, statesSeen: Int)
  {
    let viewModel = ViewModel(Tally(), initialState: Tally.State())
    let ready = AsyncStream.makeStream(of: Void.self)
    let watchers = (0..<observers).map { _ in
      Task.detached {
        var (last, seen) = (0, 0)
        var signalled = false
        for await state in viewModel.states {
          if !signalled {
            ready.continuation.yield()
            signalled = true
          }
          last = state.count
          seen += 1
          if last == target { break }
        }
        return (last, seen)
      }
    }
    var readyCount = 0
    while readyCount < observers {
      for await _ in ready.stream {
        readyCount += 1
        if readyCount == observers { break }
      }
    }
    let clock = ContinuousClock()
    let start = clock.now
    for sent in 1...target {
      viewModel.send(.increment)
      if let pacing, sent % pacing == 0 { await Task.yield() }
    }
    var statesSeen = 0
    for (index, watcher) in watchers.enumerated() {
      let (last, seen) = await watcher.value
      precondition(last == target, "an observer ended on \(last), not on the final state")
      if index == 0 { statesSeen = seen }
    }
    return (clock.now - start, statesSeen)
  }

  /// The baseline: the same reduce, and a subject that calls each subscriber in turn, paced
  /// like the view model.
  @MainActor
  private func callbackRound(actions: Int, pacing: Int?) async -> Duration {
    let subject = CallbackSubject<Tally.State>()
    let sinks = (0..<observers).map { _ in LastValue() }
    for sink in sinks { subject.subscribe { sink.value = $0.count } }
    var state = Tally.State()
    let clock = ContinuousClock()
    let start = clock.now
    for sent in 1...actions {
      var next = state
      Tally.reduce(&next, .incremented)
      if next != state {
        state = next
        subject.send(next)
      }
      if let pacing, sent % pacing == 0 { await Task.yield() }
    }
    let elapsed = clock.now - start
    precondition(sinks.allSatisfy { $0.value == actions }, "a subscriber missed the final state")
    return elapsed
  }
}

/// The benchmark's feature: one immediate side effect per action.
private struct Tally: Feature {
  enum Action: Sendable {
    case increment
  }

  enum SideEffect: Sendable {
    case incremented
  }

  struct State: Sendable, Equatable {
    var count = 0
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    .immediate(.incremented)
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    state.count += 1
  }
}

/// Holds what a callback subscriber last received.
@MainActor
private final class LastValue {
  var value = 0
}
