import Foundation

/// A stream of outcomes (`Result<Value, Reason>`) that never throws: the one bridge from async
/// work to the streams a view model consumes.
///
/// Use cases hand it out with ``DomainError`` as the failure. Guarantees of every outcome stream:
/// - it never throws: a thrown error arrives as a `.failure` element, so a consumer's `for await`
///   loop cannot be ended by a failure;
/// - when the consumer stops listening (its task is cancelled), the work is cancelled with it;
/// - the stream finishes after its last outcome, so a `for await` loop over it ends.
public struct OutcomeStream<Value: Sendable, Reason: Error>: AsyncSequence, Sendable {
  /// Each element is an outcome: a value, or the reason there is none.
  public typealias Element = Result<Value, Reason>
  /// A failure is an element, never an error thrown to the consumer.
  public typealias Failure = Never

  private enum Source: Sendable {
    /// One async call, run by the consumer that first asks for an element.
    case call(@Sendable () async throws(Reason) -> Value, Once)
    /// Outcomes a body yields from a task of its own, read through a new reader per iteration.
    case stream(@Sendable () -> OutcomeReader<Element>)
  }

  private let source: Source

  /// Turns one `async throws(Reason)` call into a stream of exactly one outcome.
  ///
  /// The role a `Future` plays in a Combine code base, with the laziness of `Deferred`: the work
  /// runs when the consumer first asks for an element, inside the consumer's own task (so
  /// cancelling that task cancels the work), once, even if the stream is iterated again. It runs
  /// off the main actor even for a consumer on it. A stream dropped unread never starts its work.
  public static func outcome(of work: @escaping @Sendable () async throws(Reason) -> Value) -> Self {
    Self(source: .call(work, Once()))
  }

  /// Builds a stream that may yield several outcomes, such as a cached value and then a fresh one.
  ///
  /// `body` starts when the stream is created, runs in a task of its own and yields through the
  /// sink; the stream finishes when `body` returns. Its task is cancelled as soon as the consumer
  /// stops listening or drops the stream unread.
  public static func outcomes(
    _ body: @escaping @Sendable (OutcomeSink<Value, Reason>) async -> Void
  ) -> Self {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let task = Task {
      await body(OutcomeSink(continuation))
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return Self(source: .stream({ OutcomeReader(stream.makeAsyncIterator()) }))
  }

  /// An iterator over the outcomes.
  public func makeAsyncIterator() -> Iterator {
    switch source {
    case .call(let work, let once): Iterator(position: .call(work, once))
    case .stream(let makeReader): Iterator(position: .stream(makeReader()))
    }
  }

  /// Hands out the outcomes in order, then `nil`.
  public struct Iterator: AsyncIteratorProtocol {
    fileprivate enum Position {
      case call(@Sendable () async throws(Reason) -> Value, Once)
      case stream(OutcomeReader<Element>)
      case end
    }

    fileprivate var position: Position

    /// The next outcome, running or awaiting the work that produces it; `nil` once the stream
    /// has finished. The consumer stays on its actor while it waits; only the work leaves it.
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      switch position {
      case .call(let work, let once):
        position = .end
        guard once.claim() else { return nil }
        // `work` is a nonisolated async function: calling it leaves the caller's actor.
        do throws(Reason) {
          return .success(try await work())
        } catch {
          return .failure(error)
        }
      case .stream(let reader):
        let element = await reader.next(isolation: actor)
        if element == nil { position = .end }
        return element
      case .end:
        return nil
      }
    }

    /// The same as ``next(isolation:)``, for callers that predate its isolation parameter.
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }
  }
}

/// Lets the first caller through and no other: what runs a one-outcome stream's work once, under
/// one lock all such guards share.
private final class Once: @unchecked Sendable {
  private var isClaimed = false

  func claim() -> Bool {
    onceLock.withLock {
      defer { isClaimed = true }
      return !isClaimed
    }
  }
}
private let onceLock = NSLock()

/// One iteration of a several-outcome stream, in a class the iterator advances in place; it also
/// gives the iterator's enum a layout fixed at compile time (see the performance article).
private final class OutcomeReader<Element: Sendable> {
  private var iterator: AsyncStream<Element>.Iterator

  init(_ iterator: AsyncStream<Element>.Iterator) {
    self.iterator = iterator
  }

  func next(isolation actor: isolated (any Actor)?) async -> Element? {
    await iterator.next(isolation: actor)
  }
}
