import PresentationLayer
import Testing

// This target is compiled with `.defaultIsolation(MainActor.self)`, like a new app target in
// Xcode 26: everything below is main-actor isolated unless it says otherwise, and nothing says
// otherwise. The feature and the view model are used exactly as in any other target.

/// A counter that also counts asynchronously, as an app would write it.
struct TallyFeature: Feature {
  enum Action {
    case tap
    case tapLater
  }

  enum SideEffect {
    case tapped
  }

  struct State: Equatable {
    var taps = 0
  }

  enum Event: Equatable {
    case reached(Int)
  }

  enum Lane: Hashable {
    case later
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .tap:
      .immediate(.tapped)
    case .tapLater:
      .run(.queue(.later)) { effects in
        await effects.apply(.tapped)
        if let taps = await effects.state?.taps { await effects.emit(.reached(taps)) }
      }
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    state.taps += 1
  }
}

@Suite("A feature in a target whose default isolation is the main actor", .timeLimit(.minutes(1)))
struct DefaultIsolationTests {
  @Test("a view model runs it: immediate effects, queued work, states and events")
  func viewModelRunsUnchanged() async {
    let viewModel = ViewModel(TallyFeature(), initialState: TallyFeature.State())
    let events = viewModel.events
    viewModel.send(.tap)
    #expect(viewModel.state.taps == 1)
    await viewModel.sendAndWait(.tapLater)
    await viewModel.sendAndWait(.tapLater)
    #expect(viewModel.state.taps == 3)
    var states = viewModel.states.makeAsyncIterator()
    #expect(await states.next() == TallyFeature.State(taps: 3))
    var received = events.makeAsyncIterator()
    #expect(await received.next() == .reached(2))
    #expect(await received.next() == .reached(3))
  }

  @Test("its reducer is a pure function")
  func reducerIsPure() {
    var state = TallyFeature.State()
    TallyFeature.reduce(&state, .tapped)
    #expect(state == TallyFeature.State(taps: 1))
  }
}
