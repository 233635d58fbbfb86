/// Sends each value to every current listener, in one order, without ever holding a lock while
/// it hands a value over.
///
/// Plain `AsyncStream` splits its values between concurrent readers; this gives each listener a
/// stream of its own. Values are not replayed: a listener hears only what is sent after it
/// subscribed, in the order it was sent, unless the caller hands it a first value itself
/// (``stream(startingWith:)``, which `StateBroadcaster` uses for its current value). Streams finish
/// when the broadcaster is finished or released; a stream asked for after that finishes at once.
///
/// `package` visibility: the network, data and presentation layers share this one copy; apps
/// that depend on the library never see it.
///
/// Why delivery happens outside the lock: yielding to a stream whose reader is waiting resumes
/// that reader's Task, which takes a lock inside the Swift runtime; cancelling the reader holds
/// that same runtime lock while the stream's `onTermination` runs, and `onTermination` takes this
/// broadcaster's lock to forget the listener. Yielding under our lock could therefore deadlock
/// against a reader being cancelled (see `withTaskCancellationHandler`'s documentation). So
/// values are numbered and queued under the lock, and one thread at a time delivers the queue,
/// in order, with no lock held.
package final class EventBroadcaster<Value: Sendable>: Sendable {
  private enum Item {
    case value(Value)
    case finish
  }

  private struct Listener {
    let continuation: AsyncStream<Value>.Continuation
    /// The number of the first queued item this listener hears.
    let since: Int
  }

  private struct Batch {
    let items: [(number: Int, item: Item)]
    let listeners: [Listener]
  }

  private struct Storage {
    var listeners: [Int: Listener] = [:]
    var nextListenerID = 0
    var queue: [(number: Int, item: Item)] = []
    var nextNumber = 0
    var isDelivering = false
    var isFinished = false

    mutating func append(_ item: Item) {
      queue.append((nextNumber, item))
      nextNumber += 1
    }

    /// Takes the queue, with the listeners that may hear it; listeners are forgotten once the
    /// queue holds the end.
    mutating func takeBatch() -> Batch {
      defer {
        queue.removeAll()
        if isFinished { listeners.removeAll() }
      }
      return Batch(items: queue, listeners: Array(listeners.values))
    }
  }

  private let storage = Locked(Storage())

  /// Creates a broadcaster with no listeners.
  package init() {}

  /// A new stream of every value sent from now on.
  package func stream() -> AsyncStream<Value> {
    makeStream(first: nil)
  }

  /// A new stream that yields `first` at once, then every value sent from now on.
  ///
  /// To hand over a current value without gaps or repeats, call this under the same lock under
  /// which that value is changed and ``enqueue(_:)``d.
  package func stream(startingWith first: Value) -> AsyncStream<Value> {
    makeStream(first: first)
  }

  /// Queues `value` for every current listener. It is delivered by the next call of
  /// ``deliverQueued()`` (on this thread or another), which the caller must make once it holds no
  /// lock: this lets a caller number values under a lock of its own and still deliver them outside.
  package func enqueue(_ value: Value) {
    storage.withLock { storage in
      guard !storage.isFinished else { return }
      storage.append(.value(value))
    }
  }

  /// Sends `value` to every current listener; ignored once finished.
  package func send(_ value: Value) {
    enqueue(value)
    deliverQueued()
  }

  /// Delivers what is queued, in order, unless another thread is delivering already; that thread
  /// then delivers it too, before it stops.
  package func deliverQueued() {
    var batch: Batch? = storage.withLock { storage in
      guard !storage.isDelivering, !storage.queue.isEmpty else { return nil }
      storage.isDelivering = true
      return storage.takeBatch()
    }
    while let current = batch {
      for (number, item) in current.items {
        for listener in current.listeners where listener.since <= number {
          switch item {
          case .value(let value): listener.continuation.yield(value)
          case .finish: listener.continuation.finish()
          }
        }
      }
      batch = storage.withLock { storage in
        guard !storage.queue.isEmpty else {
          storage.isDelivering = false
          return nil
        }
        return storage.takeBatch()
      }
    }
  }

  /// Finishes every listener's stream once the values queued before have been delivered; later
  /// values are ignored.
  package func finish() {
    storage.withLock { storage in
      guard !storage.isFinished else { return }
      storage.isFinished = true
      storage.append(.finish)
    }
    deliverQueued()
  }

  deinit {
    // Whoever queued last delivers before letting go, so nothing is left but listeners to end.
    let listeners = storage.withLock { $0.listeners.values }
    for listener in listeners { listener.continuation.finish() }
  }

  private func makeStream(first: Value?) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
    // Nobody reads the stream yet, so this only buffers the value: it resumes no Task.
    if let first { continuation.yield(first) }
    let id: Int? = storage.withLock { storage in
      guard !storage.isFinished else { return nil }
      defer { storage.nextListenerID += 1 }
      storage.listeners[storage.nextListenerID] = Listener(
        continuation: continuation, since: storage.nextNumber)
      return storage.nextListenerID
    }
    guard let id else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.storage.withLock { $0.listeners.removeValue(forKey: id) }
    }
    return stream
  }
}
