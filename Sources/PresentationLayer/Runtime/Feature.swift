/// A screen's logic, as values and functions: ``ViewModel`` runs it.
///
/// Work follows Action → SideEffect → State (ReactorKit calls the side effect a Mutation). An
/// action is planned with ``plan(for:in:)``: some side effects apply at once, and async work may
/// be scheduled, which reports further side effects and one-shot events through its ``Effects``.
/// Every side effect is folded into the state by the pure ``reduce(_:_:)``. A failure is a side
/// effect like any other, so no outcome of any work can stop later actions from working.
///
/// The requirements are nonisolated, so a feature is plain values and pure functions that tests
/// call from anywhere; it also compiles unchanged in a target whose default isolation is the
/// main actor.
public protocol Feature: Sendable {
  /// What the screen can ask for.
  associatedtype Action: Sendable
  /// What an action or its work reports: the only input of ``reduce(_:_:)``.
  associatedtype SideEffect: Sendable
  /// What the screen shows. Equatable so that only real changes are published.
  associatedtype State: Sendable & Equatable
  /// One-shot outputs that are not state (navigate, show a toast). They reach the observers
  /// listening when they are emitted and are never replayed. A feature without any can omit it.
  associatedtype Event: Sendable = Never
  /// Names the groups of work an ``InFlightPolicy`` governs together (typically an enum). A
  /// feature without async work can omit it.
  associatedtype Lane: Hashable & Sendable = Never

  /// What `action` does given the current state: side effects to apply at once, and optionally
  /// async work.
  ///
  /// Called on the main actor while the action is sent, so keep it quick. The operations it
  /// returns run later, off the main actor; capture what they need from `state` now or read
  /// ``Effects/state`` then.
  func plan(for action: Action, in state: State) -> ActionPlan<Self>

  /// Folds one side effect into the state. Pure: the same inputs always give the same state.
  static func reduce(_ state: inout State, _ effect: SideEffect)
}

extension Feature {
  /// Folds `effect` into a child's state that may be absent (a sheet not shown), or does nothing.
  public static func reduce(_ state: inout State?, _ effect: SideEffect) {
    guard var present = state else { return }
    reduce(&present, effect)
    state = present
  }
}
