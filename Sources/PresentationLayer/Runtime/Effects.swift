/// Handed to an operation: the only way its work, which runs off the main actor, talks back to
/// the view model.
///
/// It holds the view model weakly, so work that outlives the screen keeps nothing alive. Each
/// call hops to the main actor (``follow(_:onValue:onFailure:)`` hands its outcomes
/// over without waiting, to be delivered there in order before anything the work does next
/// through these effects), where the view model decides whether the work is still live: once
/// the work has ended (returned, been superseded or cancelled) or the view model is gone,
/// ``apply(_:)`` and ``emit(_:)`` do nothing, so a late result of cancelled work can never
/// overwrite the state left by the work that replaced it, even if the operation never checks for
/// cancellation.
public struct Effects<F: Feature>: Sendable {
  weak let viewModel: ViewModel<F>?
  let workID: Int
  /// Set for a child feature's work, which runs under its parent's view model: everything it
  /// applies, emits, reads and reports goes through the parent's effects (see ``ChildFeature``).
  let parent: ParentLink<F>?
  /// The view model's clock, for work that waits: a banner that hides after two seconds, a
  /// retry after a pause. A test moves it by hand, so such work is tested without real time.
  /// Once the view model is gone, and the work with it, a continuous clock.
  public var clock: any Clock<Duration> {
    if let parent { return parent.clock }
    return viewModel?.clock ?? ContinuousClock()
  }

  /// Waits `duration` on the view model's ``clock``. Throws `CancellationError` as soon as the
  /// work is cancelled, so superseded work stops waiting at once.
  public func sleep(for duration: Duration) async throws {
    try await clock.sleep(for: duration)
  }

  /// Folds `effect` into the state and publishes the result, if it differs, to every observer;
  /// ignored once this work has ended or the view model is gone.
  ///
  /// - Returns: whether the state changed. Two pieces of work that apply the same effect cannot
  ///   both see `true`, which lets exactly one of them emit the event that goes with it.
  @MainActor @discardableResult
  public func apply(_ effect: F.SideEffect) -> Bool {
    if let parent { return parent.react(Reaction.apply(effect)) }
    return viewModel?.apply(effect, fromWork: workID) ?? false
  }

  /// Sends `event` to every current listener of ``ViewModel/events``; ignored once this work has
  /// ended or the view model is gone.
  @MainActor
  public func emit(_ event: F.Event) {
    if let parent { return parent.emit(event) }
    viewModel?.emit(event, fromWork: workID)
  }

  /// The view model's current state (which other work may have changed since this operation
  /// started), or `nil` once the view model is gone.
  @MainActor
  public var state: F.State? {
    if let parent { return parent.state() }
    return viewModel?.stateAfterReports()
  }

  /// Applies `reaction` (its side effect, its event, then its follow-ups) on the main actor, after
  /// what this work reported earlier; ignored once this work has ended or the view model is gone.
  ///
  /// - Returns: whether its side effect changed the state.
  @MainActor @discardableResult
  public func react(_ reaction: Reaction<F>) -> Bool {
    if let parent { return parent.react(reaction) }
    viewModel?.deliverReports()
    return apply(reaction)
  }

  /// Plans `action` as if the screen had sent it, if this work is still live: how a child's
  /// event reaches its parent, or a watch asks for what a change it saw calls for.
  @MainActor
  public func send(_ action: F.Action) {
    if let parent { return parent.send(action) }
    viewModel?.deliverReports()
    viewModel?.accept(action, fromWork: workID)
  }

  /// Hands `reaction` to the view model without waiting for the main actor: it is applied there,
  /// in order, before anything this work applies, emits or reads later.
  func report(_ reaction: Reaction<F>) {
    if let parent { return parent.report(reaction) }
    guard let owner = viewModel else { return }
    owner.post(.reaction { [self] in apply(reaction) })
  }

  /// Applies `reaction`, then its follow-ups, if the view model is still there; returns whether
  /// its side effect changed the state.
  @MainActor @discardableResult
  func apply(_ reaction: Reaction<F>) -> Bool {
    guard let viewModel else { return false }
    let changed = viewModel.reduce(reaction.effect, fromWork: workID)
    if changed || !reaction.emitsOnlyOnChange {
      if let event = reaction.event { viewModel.broadcast(event, fromWork: workID) }
      if let action = reaction.action { viewModel.accept(action, fromWork: workID) }
    }
    for next in reaction.followUps { apply(next) }
    return changed
  }
}
