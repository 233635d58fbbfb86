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
    print("viewmodel: \(actionsPerRound) actions per round, \(observers) observers, \(rounds) rounds")
    // One warm-up round of each, not counted.
    _ = await viewModelRound()
    _ = callbackRound()
    var viewModelRates = Rates()
    var callbackRates = Rates()
    for _ in 0..<rounds {
      viewModelRates.record(operations: actionsPerRound, in: await viewModelRound())
      callbackRates.record(operations: actionsPerRound, in: callbackRound())
    }
    print("  ViewModel (send → reduce → \(observers) conflated observers): \(viewModelRates.summary)")
    print("  callback subject (send → reduce → \(observers) subscribers):  \(callbackRates.summary)")
    let ratio = viewModelRates.median / callbackRates.median
    print("  median ratio ViewModel / callback subject: \(String(Int((ratio * 100).rounded()))) %")
  }

  /// Sends every action on the main actor; ends when every observer has seen the final state.
  @MainActor
  private func viewModelRound() async -> Duration {
    let viewModel = ViewModel(Tally(), initialState: Tally.State())
    let target = actionsPerRound
    let ready = AsyncStream.makeStream(of: Void.self)
    let watchers = (0..<observers).map { _ in
      Task.detached {
        var seen = 0
        var signalled = false
        for await state in viewModel.states {
          if !signalled {
            ready.continuation.yield()
            signalled = true
          }
          seen = state.count
          if seen == target { break }
        }
        return seen
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
    for _ in 0..<target { viewModel.send(.increment) }
    for watcher in watchers {
      let last = await watcher.value
      precondition(last == target, "an observer ended on \(last), not on the final state")
    }
    return clock.now - start
  }

  /// The baseline: the same reduce, and a subject that calls each subscriber in turn.
  @MainActor
  private func callbackRound() -> Duration {
    let subject = CallbackSubject<Tally.State>()
    let sinks = (0..<observers).map { _ in LastValue() }
    for sink in sinks { subject.subscribe { sink.value = $0.count } }
    var state = Tally.State()
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<actionsPerRound {
      var next = state
      Tally.reduce(&next, .incremented)
      if next != state {
        state = next
        subject.send(next)
      }
    }
    let elapsed = clock.now - start
    precondition(sinks.allSatisfy { $0.value == actionsPerRound }, "a subscriber missed the final state")
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
