/// What a feature does with one outcome of a use case: a side effect to apply, and optionally an
/// event to emit right after it, in the same turn of the main actor.
public struct Reaction<F: Feature>: Sendable {
  let effect: F.SideEffect
  let event: F.Event?
  /// An action sent to the view model after ``effect``: a child feature's event, as its parent
  /// takes it (see ``ChildFeature``).
  let action: F.Action?
  /// Whether ``event`` and ``action`` go out only when ``effect`` changed the state.
  let emitsOnlyOnChange: Bool
  /// The reactions applied after this one, in order.
  let followUps: [Reaction]

  init(
    effect: F.SideEffect, event: F.Event?, action: F.Action? = nil, emitsOnlyOnChange: Bool,
    followUps: [Reaction]
  ) {
    self.effect = effect
    self.event = event
    self.action = action
    self.emitsOnlyOnChange = emitsOnlyOnChange
    self.followUps = followUps
  }

  /// Applies `effect`, then emits `event` if there is one.
  public static func apply(_ effect: F.SideEffect, emitting event: F.Event? = nil) -> Self {
    Self(effect: effect, event: event, emitsOnlyOnChange: false, followUps: [])
  }

  /// Applies `effect`, then emits `event` only if `effect` changed the state.
  ///
  /// However many pieces of work react this way to the same thing (every request that learns the
  /// session has ended, say), the event is emitted once: only the first changes the state.
  public static func apply(_ effect: F.SideEffect, emittingOnChange event: F.Event) -> Self {
    Self(effect: effect, event: event, emitsOnlyOnChange: true, followUps: [])
  }

  /// This reaction, then `next`, in the same turn of the main actor.
  public func then(_ next: Self) -> Self {
    Self(
      effect: effect, event: event, action: action, emitsOnlyOnChange: emitsOnlyOnChange,
      followUps: followUps + [next])
  }
}
