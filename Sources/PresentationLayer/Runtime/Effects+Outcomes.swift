public import DomainLayer

extension Effects {
  // Inlinable, so that a feature's module runs the loop specialised for its own types.
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
  /// live. The outcomes are handed over without waiting for the main actor: they are applied there
  /// in order, before anything this work later applies, emits or reads through these effects,
  /// and before its end is recorded. So a stream's outcome and the end of the work that followed
  /// it usually cost the main actor one turn, not three.
  @inlinable
  public func follow<Value: Sendable>(
    _ outcomes: OutcomeStream<Value, DomainError>,
    onValue: (Value) -> Reaction<F>,
    onFailure: (DomainError) -> Reaction<F>,
    sessionEnd: SessionEnd<F>? = nil
  ) async {
    for await outcome in outcomes {
      take(outcome, onValue: onValue, onFailure: onFailure, sessionEnd: sessionEnd)
    }
  }

  /// Hands one outcome of ``follow(_:onValue:onFailure:sessionEnd:)`` to the view model.
  ///
  /// Specialised in the feature's module, but never inlined into `follow`: an async function keeps
  /// what it builds in its task's allocator, and the reaction built here (a side effect and an
  /// event, often carrying the value) would make room there on every call.
  @inlinable @inline(never)
  func take<Value: Sendable>(
    _ outcome: Result<Value, DomainError>,
    onValue: (Value) -> Reaction<F>,
    onFailure: (DomainError) -> Reaction<F>,
    sessionEnd: SessionEnd<F>?
  ) {
    switch outcome {
    case .success(let value):
      report(onValue(value), then: nil)
    case .failure(.cancelled):
      return
    case .failure(let error):
      report(onFailure(error), then: error == .sessionExpired ? sessionEnd : nil)
    }
  }

  /// Applies `end`'s side effect and, if that changed the state, emits its event: however many
  /// pieces of work learn that the session ended, the event is emitted once.
  @MainActor
  public func endSession(_ end: SessionEnd<F>) {
    if apply(end.effect) { emit(end.event) }
  }
}
