/// What work tells its view model without waiting for the main actor.
///
/// Not generic, like ``WorkLedger``: the mailbox that holds reports is touched several times per
/// action.
@usableFromInline
enum WorkReport: Sendable {
  /// Apply a reaction to the view model, if it is still there.
  ///
  /// A closure, made by the work's ``Effects`` in the feature's own module: there it is
  /// specialised for the feature's types, where a reaction stored as a generic value would be
  /// unpacked by code that looks their layouts up at run time.
  case reaction(@MainActor @Sendable () -> Void)
  /// The work's operation has returned.
  case returned(work: Int)
}
