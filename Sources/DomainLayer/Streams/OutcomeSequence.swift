import Synchronization

/// A stream of outcomes (`Result<Value, Reason>`) that never throws: the bridge from async work
/// to streams, built only through ``outcome(of:)`` and ``outcomes(_:)``.
///
/// Use cases hand it out as ``OutcomeStream``, with ``DomainError`` as the reason; the same two
/// bridges serve any layer's typed error. Guarantees of every such stream:
/// - it never throws: a thrown error arrives as a `.failure` element, so a consumer's `for await`
///   loop cannot be ended by a failure;
/// - when the consumer stops listening (its task is cancelled), the work is cancelled with it,
///   so cancellation reaches the request underneath;
/// - the stream finishes after its last outcome, so a `for await` loop over it ends.
///
/// A stream of one outcome, the common case, is not an `AsyncStream`: it runs its work directly
/// in the consumer's `next()`. An `AsyncStream` would add a buffer, a lock, a cancellation
/// handler and a second closure to every request, about 14,000 instructions of a call that
/// ends in one element.
public struct OutcomeSequence<Value: Sendable, Reason: Error>: AsyncSequence, Sendable {
  /// Each element is an outcome: a value, or the reason there is none.
  public typealias Element = Result<Value, Reason>
  /// A failure is an element, never an error thrown to the consumer.
  public typealias Failure = Never

  // `@usableFromInline`, with the iteration `@inlinable`: a consumer's module then iterates the
  // stream specialised for its own types, instead of looking the layouts of these generic types
  // up at run time on every request.
  //
  // Every case holds a class reference. `AsyncStream` is the standard library's to lay out, so
  // held directly it would make this enum's layout, and the iterator's, a run-time question that
  // even the one-outcome path pays for at each copy and release.
  @usableFromInline
  enum Source: Sendable {
    case one(SingleUseWork<Value, Reason>)
    case many(ManyOutcomes)
  }

  @usableFromInline
  let source: Source

  @usableFromInline
  init(source: Source) {
    self.source = source
  }

  /// Turns one `async throws(Reason)` call into a stream of exactly one outcome.
  ///
  /// This is the one bridge from async work to streams (the role a `Future` convenience
  /// initialiser plays in a Combine code base). Besides the guarantees of every outcome stream:
  /// - the work runs when the consumer first asks for an element, inside the consumer's own
  ///   task, once, even if the stream is iterated again; always off the main actor, even for a
  ///   consumer on it. A stream that is dropped unread never starts its work;
  /// - the stream finishes right after the outcome.
  ///
  /// Running the work in the consumer's task, not in a task of its own, spares each call a task
  /// and the thread hand-overs that go with it: a view model's work that follows the stream
  /// calls the repository directly.
  ///
  /// Inlinable, so that the stream's box is made where the value's type is known: made here,
  /// unspecialised, it would cost a run-time look-up of the box's type on every call.
  @inlinable
  public static func outcome(of work: @escaping @Sendable () async throws(Reason) -> Value) -> Self {
    Self(source: .one(SingleUseWork(work)))
  }

  /// Builds a stream that may yield several outcomes, such as a cached value and then a fresh one.
  ///
  /// `body` starts when the stream is created, runs in its own task and yields through the sink;
  /// the stream finishes when `body` returns. No element throws, and `body`'s task is cancelled
  /// as soon as the consumer stops listening or drops the stream unread.
  public static func outcomes(
    _ body: @escaping @Sendable (OutcomeSink<Value, Reason>) async -> Void
  ) -> Self {
    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    let task = Task {
      await body(OutcomeSink(continuation))
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return Self(source: .many(ManyOutcomes(stream)))
  }

  /// An iterator over the outcomes.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    switch source {
    case .one(let work): Iterator(.one(work))
    case .many(let outcomes): Iterator(.many(outcomes.makeReader()))
    }
  }

  /// Hands out the outcomes in order, then `nil`.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline
    enum Position {
      case one(SingleUseWork<Value, Reason>)
      case many(ManyOutcomes.Reader)
      case end
    }

    @usableFromInline
    var position: Position

    @usableFromInline
    init(_ position: Position) {
      self.position = position
    }

    /// The next outcome, running or awaiting the work that produces it; `nil` once the stream
    /// has finished.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      switch position {
      case .one(let single):
        position = .end
        guard let work = single.take() else { return nil }
        // `work` is a nonisolated async function: calling it leaves the caller's actor.
        do throws(Reason) {
          return .success(try await work())
        } catch {
          return .failure(error)
        }
      case .many(let reader):
        let element = await reader.next(isolation: actor)
        if element == nil { position = .end }
        return element
      case .end:
        return nil
      }
    }

    /// The same as ``next(isolation:)`` without an isolation to stay on, for callers that
    /// predate `AsyncIteratorProtocol`'s isolated requirement.
    @inlinable
    public mutating func next() async -> Element? {
      await next(isolation: nil)
    }
  }
}

extension OutcomeSequence {
  /// The stream of a several-outcome sequence, in a box (see the comment on `Source`).
  @usableFromInline
  final class ManyOutcomes: Sendable {
    @usableFromInline
    let stream: AsyncStream<Element>

    init(_ stream: AsyncStream<Element>) {
      self.stream = stream
    }

    /// A new iteration of the stream.
    ///
    /// Specialised in the consumer's module but never inlined there, like `Reader.next(isolation:)`:
    /// the standard library's iterator has a size known only at run time, so inlined into
    /// an async function such as a feature's loop over the stream, it would be allocated from
    /// the task's allocator on every entry to that function, even when the stream has one outcome
    /// and this branch never runs.
    @inlinable @inline(never)
    func makeReader() -> Reader {
      Reader(stream.makeAsyncIterator())
    }

    /// One iteration of the stream, in a box (see the comment on `Source`).
    @usableFromInline
    final class Reader {
      @usableFromInline
      var iterator: AsyncStream<Element>.Iterator

      @usableFromInline
      init(_ iterator: AsyncStream<Element>.Iterator) {
        self.iterator = iterator
      }

      @inlinable @inline(never)
      func next(isolation actor: isolated (any Actor)?) async -> Element? {
        await iterator.next(isolation: actor)
      }
    }
  }
}

/// The work of a one-outcome stream, handed out once: a second `next()`, or a second iterator
/// over the same stream, must not run it again.
@usableFromInline
final class SingleUseWork<Value: Sendable, Reason: Error>: Sendable {
  private let work: @Sendable () async throws(Reason) -> Value
  private let isTaken = Atomic(false)

  @usableFromInline
  init(_ work: @escaping @Sendable () async throws(Reason) -> Value) {
    self.work = work
  }

  @usableFromInline
  func take() -> (@Sendable () async throws(Reason) -> Value)? {
    isTaken.exchange(true, ordering: .acquiringAndReleasing) ? nil : work
  }
}
