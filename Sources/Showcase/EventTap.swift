import LayeredSupport
import SampleBackend

/// Listens to a view model's one-shot events so a scenario can print and check them.
final class EventTap<Event: Sendable>: Sendable {
  private let received = Locked<[Event]>([])
  private let listener = Locked<Task<Void, Never>?>(nil)

  init(_ events: AsyncStream<Event>) {
    let received = self.received
    let task = Task {
      for await event in events { received.withLock { $0.append(event) } }
    }
    listener.withLock { $0 = task }
  }

  deinit {
    listener.withLock { $0?.cancel() }
  }

  /// The events received since the last call. Events are delivered asynchronously, so it first
  /// lets the listener catch up with anything already sent.
  func drain() async -> [Event] {
    for _ in 0..<50 { await Task.yield() }
    return received.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }
}
