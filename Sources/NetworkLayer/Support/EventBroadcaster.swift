/// Sends each value to every current listener, and to no later one.
///
/// Plain `AsyncStream` splits its values between concurrent readers; this gives each listener a
/// stream of its own. Values are not replayed: a listener hears only what is sent after it
/// subscribed. Streams finish when the broadcaster is released.
final class EventBroadcaster<Value: Sendable>: Sendable {
  private struct Listeners {
    var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
    var nextID = 0
  }

  private let listeners = Locked(Listeners())

  /// A new stream of every value sent from now on.
  func stream() -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    let id = listeners.withLock { listeners in
      defer { listeners.nextID += 1 }
      listeners.continuations[listeners.nextID] = continuation
      return listeners.nextID
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.listeners.withLock { $0.continuations.removeValue(forKey: id) }
    }
    return stream
  }

  /// Sends `value` to every listener.
  func send(_ value: Value) {
    listeners.withLock { listeners in
      for continuation in listeners.continuations.values { continuation.yield(value) }
    }
  }

  deinit {
    let continuations = listeners.withLock { $0.continuations.values }
    for continuation in continuations { continuation.finish() }
  }
}
