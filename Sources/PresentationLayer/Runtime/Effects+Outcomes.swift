public import DomainLayer

extension Effects {
  /// Consumes `outcomes` to their end: the loop every feature would otherwise write.
  ///
  /// - A value is handed to `onValue`, whose reaction is applied (and its event emitted).
  /// - `DomainError.cancelled` is skipped: it means the work was superseded or the screen left,
  ///   and nothing is shown for it.
  /// - Any other failure is handed to `onFailure`, whose reaction is applied the same way.
  ///
  /// Everything reaches the view model in the order of the stream, and only while this work is
  /// live. The outcomes are handed over without waiting for the main actor: they are applied there
  /// in order, before anything this work later applies, emits or reads through these effects,
  /// and before its end is recorded. So a stream's outcome and the end of the work that followed
  /// it usually cost the main actor one turn, not three.
  public func follow<Value: Sendable>(
    _ outcomes: OutcomeStream<Value, DomainError>,
    onValue: (Value) -> Reaction<F>,
    onFailure: (DomainError) -> Reaction<F>
  ) async {
    for await outcome in outcomes {
      take(outcome, onValue: onValue, onFailure: onFailure)
    }
  }

  /// Hands one outcome of ``follow(_:onValue:onFailure:)`` to the view model.
  func take<Value: Sendable>(
    _ outcome: Result<Value, DomainError>,
    onValue: (Value) -> Reaction<F>,
    onFailure: (DomainError) -> Reaction<F>
  ) {
    switch outcome {
    case .success(let value):
      report(onValue(value))
    case .failure(.cancelled):
      return
    case .failure(let error):
      report(onFailure(error))
    }
  }
}
