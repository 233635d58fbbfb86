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

  /// The events received since the last call, once they satisfy `isComplete`, or after `limit`
  /// if they never do: the check that reads them then fails instead of the showcase hanging.
  ///
  /// An event is in the stream by the time the `sendAndWait` that caused it returns, but the
  /// listener runs in a task of its own, which a busy machine can hold up for milliseconds; so
  /// the wait is for the events expected, not for a number of yields. Events beyond those get a
  /// few yields more, to show up here rather than in the next step.
  func drain(
    until isComplete: @Sendable ([Event]) -> Bool = { _ in true }, within limit: Duration = .seconds(5)
  ) async -> [Event] {
    let deadline = ContinuousClock.now + limit
    while !received.withLock({ isComplete($0) }), ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(1))
    }
    for _ in 0..<50 { await Task.yield() }
    return received.withLock { events in
      defer { events.removeAll() }
      return events
    }
  }
}
