/// What work tells its view model without waiting for the main actor.
///
/// Not generic, like ``WorkLedger``: the mailbox that holds reports is touched several times per
/// action. A reaction travels as a ``ReactionReport`` of the view model's feature, which the view
/// model, the only reader, casts back once.
enum WorkReport: Sendable {
  /// Apply the ``ReactionReport``'s reaction.
  case reaction(any AnyObject & Sendable, work: Int)
  /// The work's operation has returned.
  case returned(work: Int)
}

/// A reaction on its way to the main actor: apply its side effect and emit its event, then, if
/// given, record the session's end (emitting its event only if that changed the state).
final class ReactionReport<F: Feature>: Sendable {
  let reaction: Reaction<F>
  let sessionEnd: SessionEnd<F>?

  init(_ reaction: Reaction<F>, sessionEnd: SessionEnd<F>?) {
    self.reaction = reaction
    self.sessionEnd = sessionEnd
  }
}
