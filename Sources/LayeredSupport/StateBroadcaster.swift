/// Holds a current value and multicasts it to any number of observers.
///
/// Plain `AsyncStream` is single-consumer: two loops over one stream split its values between
/// them. A broadcaster instead gives every observer its own stream, which starts with the value
/// current at the moment of subscribing and then receives every later value, in order, without
/// gaps or repeats. Ending the broadcaster finishes every observer's stream.
///
/// Changes are applied and queued under a lock, and handed to observers after it is released
/// (through ``EventBroadcaster``): handing a value to a waiting reader under a lock can deadlock
/// against that reader being cancelled at the same moment.
package final class StateBroadcaster<Value: Sendable>: Sendable {
  private let current: Locked<Value>
  private let changes = EventBroadcaster<Value>()

  /// Creates a broadcaster whose current value is `initial`.
  package init(_ initial: Value) {
    current = Locked(initial)
  }

  /// The current value.
  package var value: Value {
    current.withLock { $0 }
  }

  /// A new stream that yields the current value at once, then every change.
  ///
  /// The stream finishes when the broadcaster finishes or is released; an observer that stops
  /// listening is forgotten.
  package func values() -> AsyncStream<Value> {
    // Under the same lock as `update`, so no change falls between the first value and the rest.
    current.withLock { value in changes.stream(startingWith: value) }
  }

  /// Changes the current value with `transform` and sends the result to every observer.
  ///
  /// Changes are numbered in the order they are applied and every observer receives them in
  /// that order.
  package func update(_ transform: (inout Value) -> Void) {
    current.withLock { value in
      transform(&value)
      changes.enqueue(value)
    }
    changes.deliverQueued()
  }

  /// Finishes every observer's stream; later updates still change the value but reach nobody.
  package func finish() {
    changes.finish()
  }
}
