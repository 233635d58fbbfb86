/// What work tells its view model without waiting for the main actor.
///
/// Not generic, like ``WorkLedger``: the mailbox that holds reports is touched several times per
/// action.
enum WorkReport: Sendable {
  /// Apply a reaction to the view model, if it is still there: a closure made by the work's
  /// ``Effects``, where the feature's types are known.
  case reaction(@MainActor @Sendable () -> Void)
  /// The work's operation has returned.
  case returned(work: Int)
}
