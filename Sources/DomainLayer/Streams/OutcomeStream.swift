import LayeredSupport

/// The result of one piece of domain work: a value, or the reason there is none.
public typealias Outcome<Value: Sendable> = Result<Value, DomainError>

/// What every use case hands to the presentation layer.
///
/// Its elements are outcomes, not values, and it never throws: a failure is an element like
/// any other, so a consumer's `for await` loop cannot be ended by an error. That is the
/// property that keeps a screen's input working after any number of failed requests.
public typealias OutcomeStream<Value: Sendable> = AsyncStream<Outcome<Value>>

/// Hands outcomes to the consumer of a stream built with ``_Concurrency/AsyncStream/outcomes(_:)``.
public struct OutcomeSink<Value: Sendable, Failure: Error>: Sendable {
  fileprivate let continuation: AsyncStream<Result<Value, Failure>>.Continuation

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

/// The bridges from async work to outcome streams: the only way the layers build one, so every
/// stream of outcomes keeps the same guarantees.
extension AsyncStream {
  /// Turns one `async throws(Failure)` call into a stream of exactly one outcome.
  ///
  /// This is the one bridge from async work to streams (the role a `Future` convenience
  /// initialiser plays in a Combine code base). Use cases call it with `DomainError`, giving an
  /// ``OutcomeStream``; it works with any typed error, so the same bridge serves every layer.
  /// Guarantees:
  /// - the stream never throws; a thrown error arrives as a `.failure` element;
  /// - the work runs when the consumer first asks for an element, inside the consumer's own
  ///   task, once; always off the main actor, even for a consumer on it. A stream that is
  ///   dropped unread never starts its work;
  /// - when the consumer stops listening (its task is cancelled), the work is cancelled with it,
  ///   so cancellation reaches the network request underneath;
  /// - the stream finishes right after the outcome, so a `for await` loop over it ends.
  ///
  /// Running the work in the consumer's task, not in a task of its own, spares each call a task
  /// and the thread hand-overs that go with it: a view model's work that follows the stream
  /// calls the repository directly.
  public static func outcome<Value, Failure>(
    of work: @escaping @Sendable () async throws(Failure) -> Value
  ) -> AsyncStream<Element> where Element == Result<Value, Failure>, Value: Sendable {
    let pending = SingleUse(work)
    return AsyncStream(unfolding: { () async -> Element? in
      guard let work = pending.take() else { return nil }
      do throws(Failure) {
        return .success(try await work())
      } catch {
        return .failure(error)
      }
    })
  }

  /// Builds a stream that may yield several outcomes, such as a cached value and then a fresh one.
  ///
  /// `body` starts when the stream is created, runs in its own task and yields through the sink;
  /// the stream finishes when `body` returns. No element throws, and `body`'s task is cancelled
  /// as soon as the consumer stops listening or drops the stream unread.
  public static func outcomes<Value, Failure>(
    _ body: @escaping @Sendable (OutcomeSink<Value, Failure>) async -> Void
  ) -> AsyncStream<Element> where Element == Result<Value, Failure>, Value: Sendable {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let task = Task {
      await body(OutcomeSink(continuation: continuation))
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}

/// Hands its value out once: the work of a one-outcome stream, which a second `next()` (or a
/// second iterator) must not run again.
private final class SingleUse<Value: Sendable>: Sendable {
  private let value: Locked<Value?>

  init(_ value: Value) {
    self.value = Locked(value)
  }

  func take() -> Value? {
    value.withLock { value in
      defer { value = nil }
      return value
    }
  }
}
