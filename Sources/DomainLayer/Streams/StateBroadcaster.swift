/// Holds a current value and multicasts it to any number of observers.
///
/// Plain `AsyncStream` is single-consumer: two loops over one stream split its values between
/// them. A broadcaster instead gives every observer its own stream, which starts with the value
/// current at the moment of subscribing and then receives every later value, in order, without
/// dropping any. Ending the broadcaster finishes every observer's stream.
package final class StateBroadcaster<Value: Sendable>: Sendable {
  private struct Storage {
    var value: Value
    var observers: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
    var isFinished = false
  }

  private let storage: Locked<Storage>

  /// Creates a broadcaster whose current value is `initial`.
  package init(_ initial: Value) {
    storage = Locked(Storage(value: initial))
  }

  /// The current value.
  package var value: Value {
    storage.withLock { $0.value }
  }

  /// A new stream that yields the current value at once, then every change.
  ///
  /// The stream finishes when the broadcaster finishes or is released; an observer that stops
  /// listening is forgotten.
  package func values() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let id: Int? = storage.withLock { storage in
      continuation.yield(storage.value)
      guard !storage.isFinished else { return nil }
      let id = storage.nextID
      storage.nextID += 1
      storage.observers[id] = continuation
      return id
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.storage.withLock { $0.observers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Changes the current value with `transform` and sends the result to every observer.
  ///
  /// The change and the delivery happen under one lock, so concurrent updates reach every
  /// observer in the same order in which they were applied.
  package func update(_ transform: (inout Value) -> Void) {
    storage.withLock { storage in
      guard !storage.isFinished else { return }
      transform(&storage.value)
      for observer in storage.observers.values { observer.yield(storage.value) }
    }
  }

  /// Finishes every observer's stream; later updates are ignored.
  package func finish() {
    let observers = storage.withLock { storage in
      storage.isFinished = true
      defer { storage.observers.removeAll() }
      return Array(storage.observers.values)
    }
    for observer in observers { observer.finish() }
  }

  deinit {
    finish()
  }
}
