public import DomainLayer

extension Effects {
  /// Consumes `outcomes` to their end: the loop every feature would otherwise write.
  ///
  /// - A value is handed to `onValue`, whose reaction is applied (and its event emitted).
  /// - `DomainError.cancelled` is skipped: it means the work was superseded or the screen left,
  ///   and nothing is shown for it.
  /// - Any other failure is handed to `onFailure`; if it is `DomainError.sessionExpired` and a
  ///   `sessionEnd` is given, the session's end is recorded and announced once (see
  ///   ``endSession(_:)``).
  ///
  /// Everything reaches the view model in the order of the stream, and only while this work is
  /// live.
  public func follow<Value: Sendable>(
    _ outcomes: OutcomeStream<Value>,
    onValue: (Value) -> Reaction<F>,
    onFailure: (DomainError) -> Reaction<F>,
    sessionEnd: SessionEnd<F>? = nil
  ) async {
    for await outcome in outcomes {
      switch outcome {
      case .success(let value):
        await perform(onValue(value))
      case .failure(.cancelled):
        continue
      case .failure(let error):
        await perform(onFailure(error), then: error == .sessionExpired ? sessionEnd : nil)
      }
    }
  }

  /// Applies `end`'s side effect and, if that changed the state, emits its event: however many
  /// pieces of work learn that the session ended, the event is emitted once.
  @MainActor
  public func endSession(_ end: SessionEnd<F>) {
    if apply(end.effect) { emit(end.event) }
  }

  @MainActor
  private func perform(_ reaction: Reaction<F>, then end: SessionEnd<F>? = nil) {
    apply(reaction.effect)
    if let event = reaction.event { emit(event) }
    if let end { endSession(end) }
  }
}
