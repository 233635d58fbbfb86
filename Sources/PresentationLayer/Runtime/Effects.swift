/// Handed to an operation: the only way its work talks back to the view model.
///
/// It holds the view model weakly, so work that outlives the screen keeps nothing alive. Once the
/// work has ended (returned, been superseded or cancelled) or the view model is gone, ``apply(_:)``
/// and ``emit(_:)`` do nothing: the decision is made under the view model's lock, so a late
/// result of cancelled work can never overwrite the state left by the work that replaced it,
/// even if the operation never checks for cancellation.
public struct Effects<F: Feature>: Sendable {
  private weak let viewModel: ViewModel<F>?
  private let workID: Int

  init(viewModel: ViewModel<F>, workID: Int) {
    self.viewModel = viewModel
    self.workID = workID
  }

  /// Folds `effect` into the state and publishes the result, if it differs, to every observer;
  /// ignored once this work has ended or the view model is gone.
  public func apply(_ effect: F.SideEffect) {
    viewModel?.apply(effect, fromWork: workID)
  }

  /// Sends `event` to every current listener of ``ViewModel/events``; ignored once this work has
  /// ended or the view model is gone.
  public func emit(_ event: F.Event) {
    viewModel?.emit(event, fromWork: workID)
  }

  /// The view model's current state (which other work may have changed since this operation
  /// started), or `nil` once the view model is gone.
  public var state: F.State? {
    viewModel?.state
  }

  /// Whether this work may still change the state: not yet ended, and the view model is alive.
  var isLive: Bool {
    viewModel?.isLive(workID) ?? false
  }

  /// Tells the view model that the operation has returned.
  func operationReturned() {
    viewModel?.operationReturned(fromWork: workID)
  }
}
