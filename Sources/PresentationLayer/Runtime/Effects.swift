/// Handed to an operation: the only way its work, which runs off the main actor, talks back to
/// the view model.
///
/// It holds the view model weakly, so work that outlives the screen keeps nothing alive. Each
/// call hops to the main actor (``follow(_:onValue:onFailure:sessionEnd:)`` hands its outcomes
/// over without waiting, to be delivered there in order before anything the work does next
/// through these effects), where the view model decides whether the work is still live: once
/// the work has ended (returned, been superseded or cancelled) or the view model is gone,
/// ``apply(_:)`` and ``emit(_:)`` do nothing, so a late result of cancelled work can never
/// overwrite the state left by the work that replaced it, even if the operation never checks for
/// cancellation.
public struct Effects<F: Feature>: Sendable {
  @usableFromInline weak let viewModel: ViewModel<F>?
  @usableFromInline let workID: Int

  @usableFromInline
  init(viewModel: ViewModel<F>, workID: Int) {
    self.viewModel = viewModel
    self.workID = workID
  }

  /// Folds `effect` into the state and publishes the result, if it differs, to every observer;
  /// ignored once this work has ended or the view model is gone.
  ///
  /// - Returns: whether the state changed. Two pieces of work that apply the same effect cannot
  ///   both see `true`, which lets exactly one of them emit the event that goes with it.
  @MainActor @discardableResult
  public func apply(_ effect: F.SideEffect) -> Bool {
    viewModel?.apply(effect, fromWork: workID) ?? false
  }

  /// Sends `event` to every current listener of ``ViewModel/events``; ignored once this work has
  /// ended or the view model is gone.
  @MainActor
  public func emit(_ event: F.Event) {
    viewModel?.emit(event, fromWork: workID)
  }

  /// The view model's current state (which other work may have changed since this operation
  /// started), or `nil` once the view model is gone.
  @MainActor
  public var state: F.State? {
    viewModel?.stateAfterReports()
  }

  /// Hands `reaction` (and then `end`) to the view model without waiting for the main actor:
  /// they are applied there in order, before anything this work applies, emits or reads later.
  ///
  /// Inlinable, with ``follow(_:onValue:onFailure:sessionEnd:)``, so that the closure that
  /// applies them is built specialised in the feature's module.
  ///
  /// The closure captures these effects, whose reference to the view model is a `weak let`,
  /// rather than the view model through `[weak viewModel]`: a capture-list `weak` is a variable,
  /// which the closure keeps in a heap box of its own, one more allocation for every outcome.
  @inlinable
  func report(_ reaction: Reaction<F>, then end: SessionEnd<F>?) {
    guard let owner = viewModel else { return }
    owner.post(
      .reaction { [self] in
        guard let viewModel else { return }
        viewModel.reduce(reaction.effect, fromWork: workID)
        if let event = reaction.event { viewModel.broadcast(event, fromWork: workID) }
        if let end, viewModel.reduce(end.effect, fromWork: workID) {
          viewModel.broadcast(end.event, fromWork: workID)
        }
      })
  }

  /// Tells the view model that the operation has returned, after everything it reported.
  @usableFromInline
  func operationReturned() {
    viewModel?.post(.returned(work: workID))
  }
}
