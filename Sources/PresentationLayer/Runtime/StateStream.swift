import LayeredSupport

/// The states of a ``ViewModel`` for one observer: the current state at once, then its changes,
/// conflated like Kotlin's `StateFlow`.
///
/// An observer that falls behind gets the latest state, never a stale one, and skips the states
/// in between; every observer ends on the final state before the sequence ends (when the view
/// model is cancelled or released). Any number of observers may iterate at the same time, each
/// at its own pace; cancelling an observer's Task ends its iteration. An observer off the main
/// actor hops to it to take each state, so a burst of sends costs it one state, not one per send.
public struct StateStream<State: Sendable>: AsyncSequence, Sendable {
  /// Each element is a whole state, never a change to one.
  public typealias Element = State
  /// Observing never fails: the sequence only ends.
  public typealias Failure = Never

  private let source: ConflatedBroadcaster<State>
  private let owner: WeakDeliverer

  /// The states `source` holds, published by `owner`, which a waiting observer may deliver
  /// reports for.
  init(_ source: ConflatedBroadcaster<State>, owner: WeakDeliverer) {
    self.source = source
    self.owner = owner
  }

  /// An iterator that starts at the current state.
  public func makeAsyncIterator() -> Iterator {
    Iterator(source: source, owner: owner)
  }

  /// Hands one observer the states it has not seen yet, latest first.
  public struct Iterator: AsyncIteratorProtocol {
    private let source: ConflatedBroadcaster<State>
    private let owner: WeakDeliverer
    private var seen = -1

    fileprivate init(source: ConflatedBroadcaster<State>, owner: WeakDeliverer) {
      self.source = source
      self.owner = owner
    }

    /// The latest state this observer has not seen, waiting for one if need be; `nil` once the
    /// view model is finished and its final state was seen, or the calling Task is cancelled.
    ///
    /// While it waits, the view model's work may wake it to deliver what the work reported, on
    /// the main actor, where the observer was about to go for the state that comes of it: one
    /// wake-up of the main actor instead of one for the delivery and another for the observer.
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> State? {
      await source.next(after: &seen) { [owner] in owner.target?.deliverReports() }
    }

    /// The same as ``next(isolation:)`` without an isolation to stay on, for callers that
    /// predate `AsyncIteratorProtocol`'s isolated requirement.
    public mutating func next() async -> State? {
      await next(isolation: nil)
    }
  }
}
