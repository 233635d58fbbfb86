import PresentationLayer

/// A toy counter: immediate changes, async bumps that run side by side, and announcements.
struct CounterFeature: Feature {
  enum Action: Sendable {
    case increment
    case set(Int)
    /// Increments from an operation, alongside any other bump.
    case bump
    /// Emits an event from an operation.
    case announce(String)
  }

  enum SideEffect: Sendable {
    case incremented
    case set(Int)
  }

  struct State: Sendable, Equatable {
    var count = 0
  }

  enum Event: Sendable, Hashable {
    case said(String)
  }

  enum Lane: Sendable, Hashable {
    case bump
    case announce
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .increment:
      .immediate(.incremented)
    case .set(let count):
      .immediate(.set(count))
    case .bump:
      .run(.merge(.bump)) { await $0.apply(.incremented) }
    case .announce(let text):
      .run(.merge(.announce)) { await $0.emit(.said(text)) }
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .incremented: state.count += 1
    case .set(let count): state.count = count
    }
  }
}

extension ViewModel where F == CounterFeature {
  /// A counter at zero.
  nonisolated convenience init() {
    self.init(CounterFeature(), initialState: CounterFeature.State())
  }
}
