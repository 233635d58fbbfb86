import LayeredSupport
import SampleBackend

/// Records every element of a stream, so a test can assert the whole sequence, not a sample.
///
/// It starts listening at once, in a task of its own; ``values`` is what arrived so far, and
/// ``waitUntil(_:)`` suspends until the recording satisfies a condition (or the stream ends).
public final class StreamRecorder<Element: Sendable>: Sendable {
  private struct Storage {
    var values: [Element] = []
    var isFinished = false
    var waiters:
      [(condition: @Sendable ([Element]) -> Bool, continuation: CheckedContinuation<[Element], Never>)] = []
  }

  private let storage = Locked(Storage())
  private let task = Locked<Task<Void, Never>?>(nil)

  /// Starts recording `stream`: an `AsyncStream`, or a view model's conflated `StateStream`.
  public init<Stream: AsyncSequence & Sendable>(_ stream: Stream)
  where Stream.Element == Element, Stream.Failure == Never {
    let listener = Task { [weak self] in
      for await element in stream {
        self?.record(element)
      }
      self?.finish()
    }
    task.withLock { $0 = listener }
  }

  deinit {
    task.withLock { $0?.cancel() }
  }

  /// Everything recorded so far.
  public var values: [Element] {
    storage.withLock { $0.values }
  }

  /// Returns the recording as soon as `condition` holds for it, or when the stream has ended.
  @discardableResult
  public func waitUntil(_ condition: @escaping @Sendable ([Element]) -> Bool) async -> [Element] {
    await withCheckedContinuation { continuation in
      storage.withLock { storage in
        if storage.isFinished || condition(storage.values) {
          continuation.resume(returning: storage.values)
        } else {
          storage.waiters.append((condition, continuation))
        }
      }
    }
  }

  /// Returns the recording once it holds at least `count` elements (or the stream has ended).
  @discardableResult
  public func waitForCount(_ count: Int) async -> [Element] {
    await waitUntil { $0.count >= count }
  }

  /// Stops listening.
  public func cancel() {
    task.withLock { $0?.cancel() }
  }

  private func record(_ element: Element) {
    storage.withLock { storage in
      storage.values.append(element)
      let values = storage.values
      storage.waiters.removeAll { waiter in
        guard waiter.condition(values) else { return false }
        waiter.continuation.resume(returning: values)
        return true
      }
    }
  }

  private func finish() {
    storage.withLock { storage in
      storage.isFinished = true
      for waiter in storage.waiters { waiter.continuation.resume(returning: storage.values) }
      storage.waiters.removeAll()
    }
  }
}
