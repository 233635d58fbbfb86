/// Hands outcomes to the consumer of a stream built with ``OutcomeStream/outcomes(_:)``.
public struct OutcomeSink<Value: Sendable, Failure: Error>: Sendable {
  private let continuation: AsyncStream<Result<Value, Failure>>.Continuation

  init(_ continuation: AsyncStream<Result<Value, Failure>>.Continuation) {
    self.continuation = continuation
  }

  /// Delivers a value.
  public func yield(_ value: Value) {
    continuation.yield(.success(value))
  }

  /// Delivers a failure. The stream goes on: more outcomes may follow.
  public func yield(failure error: Failure) {
    continuation.yield(.failure(error))
  }

  /// Delivers an outcome as it is.
  public func yield(_ outcome: Result<Value, Failure>) {
    continuation.yield(outcome)
  }
}
