/// What a feature does with one outcome of a use case: a side effect to apply, and optionally an
/// event to emit right after it, in the same turn of the main actor.
public struct Reaction<F: Feature>: Sendable {
  @usableFromInline let effect: F.SideEffect
  @usableFromInline let event: F.Event?

  /// Applies `effect`, then emits `event` if there is one.
  public static func apply(_ effect: F.SideEffect, emitting event: F.Event? = nil) -> Self {
    Self(effect: effect, event: event)
  }
}

/// How a screen reacts when the session ends: a side effect that records it in the state, and the
/// event (typically "go to sign-in") emitted when that side effect changes the state.
///
/// Because the event goes with the state change, a screen that learns of the end twice (a failed
/// request and the session watch) emits it once.
public struct SessionEnd<F: Feature>: Sendable {
  @usableFromInline let effect: F.SideEffect
  @usableFromInline let event: F.Event

  /// Records the end with `effect`; emits `event` the first time `effect` changes the state.
  public init(recordedBy effect: F.SideEffect, announcedBy event: F.Event) {
    self.effect = effect
    self.event = event
  }
}
