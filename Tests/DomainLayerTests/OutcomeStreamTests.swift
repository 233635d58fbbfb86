import Dispatch
import DomainLayer
import LayeredSupport
import Testing

@Suite("The async→stream helper")
struct OutcomeStreamTests {
  @Test("a successful call yields one value and then finishes")
  func successIsOneElement() async {
    let stream = OutcomeStream<Int, DomainError>.outcome { () async throws(DomainError) in 42 }
    var received: [Result<Int, DomainError>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.success(42)])
  }

  @Test("a thrown error arrives as an element, so the consumer's loop is not ended by it")
  func failureIsAnElement() async {
    let stream = OutcomeStream<Int, DomainError>.outcome { () async throws(DomainError) -> Int in
      throw .offline
    }
    var received: [Result<Int, DomainError>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.failure(.offline)])
  }

  @Test("a stream may yield several outcomes, failures included, in order")
  func severalOutcomes() async {
    let stream = OutcomeStream<String, DomainError>.outcomes { sink in
      sink.yield("cached")
      sink.yield(failure: .timeout)
      sink.yield("fresh")
    }
    var received: [Result<String, DomainError>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.success("cached"), .failure(.timeout), .success("fresh")])
  }

  @Test("when the consumer stops listening, the work is cancelled")
  func consumerLeavingCancelsWork() async {
    let started = AsyncStream.makeStream(of: Void.self)
    let cancelled = AsyncStream.makeStream(of: Bool.self)
    let stream = OutcomeStream<Int, DomainError>.outcome { () async throws(DomainError) -> Int in
      started.continuation.yield()
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        cancelled.continuation.yield(Task.isCancelled)
        throw .cancelled
      }
      return 0
    }
    let (sawCancellation, _) = await cancelConsumer(
      of: stream, once: started.stream, reading: cancelled.stream)
    #expect(sawCancellation == true)
  }

  @Test("when the consumer of a stream of several outcomes stops listening, its body is cancelled")
  func consumerLeavingCancelsBody() async {
    let started = AsyncStream.makeStream(of: Void.self)
    let cancelled = AsyncStream.makeStream(of: Bool.self)
    let stream = OutcomeStream<Int, DomainError>.outcomes { sink in
      sink.yield(1)
      started.continuation.yield()
      try? await Task.sleep(for: .seconds(600))
      cancelled.continuation.yield(Task.isCancelled)
    }
    let (sawCancellation, received) = await cancelConsumer(
      of: stream, once: started.stream, reading: cancelled.stream)
    #expect(sawCancellation == true)
    #expect(received <= 1)
  }

  @Test("a stream dropped unread never starts its work, and lets go of it")
  func droppedStreamNeverStartsWork() {
    let runs = Locked(0)
    weak var releasedWork: WorkHandle?
    do {
      let handle = WorkHandle()
      releasedWork = handle
      let stream = OutcomeStream<Int, DomainError>.outcome { [handle] () async throws(DomainError) -> Int in
        runs.withLock { $0 += 1 }
        return handle.value
      }
      _ = consume stream
    }
    #expect(runs.withLock { $0 } == 0)
    #expect(releasedWork == nil)
  }

  @Test("the work runs once, when the consumer first asks, even for a second loop over the stream")
  func workRunsOnceWhenAsked() async {
    let runs = Locked(0)
    let stream = OutcomeStream<Int, DomainError>.outcome { () async throws(DomainError) -> Int in
      runs.withLock { $0 += 1 }
      return 7
    }
    #expect(runs.withLock { $0 } == 0)
    var first: [Result<Int, DomainError>] = []
    for await outcome in stream { first.append(outcome) }
    var second: [Result<Int, DomainError>] = []
    for await outcome in stream { second.append(outcome) }
    #expect(first == [.success(7)])
    #expect(second.isEmpty)
    #expect(runs.withLock { $0 } == 1)
  }

  @Test("the work runs off the main actor even when the consumer is on it")
  @MainActor
  func workRunsOffTheMainActor() async {
    let key = DispatchSpecificKey<Int>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    defer { DispatchQueue.main.setSpecific(key: key, value: nil) }
    // The main actor is the main queue here, so the key tells whether code runs on it.
    let consumerIsOnMain = DispatchQueue.getSpecific(key: key) == 1
    let stream = OutcomeStream<Bool, DomainError>.outcome { () async throws(DomainError) -> Bool in
      DispatchQueue.getSpecific(key: key) == 1
    }
    var workRanOnMain: [Result<Bool, DomainError>] = []
    for await outcome in stream { workRanOnMain.append(outcome) }
    #expect(consumerIsOnMain)
    #expect(workRanOnMain == [.success(false)])
  }
}

/// Consumes `stream` in a task of its own, cancels that task once the work signals through
/// `started`, and returns what the work then reports through `cancelled`, with how many outcomes
/// the consumer had received when its loop ended.
private func cancelConsumer(
  of stream: OutcomeStream<Int, DomainError>, once started: AsyncStream<Void>,
  reading cancelled: AsyncStream<Bool>
) async -> (sawCancellation: Bool?, received: Int) {
  let consumer = Task {
    var received = 0
    for await _ in stream { received += 1 }
    return received
  }
  var startedIterator = started.makeAsyncIterator()
  await startedIterator.next()
  consumer.cancel()
  var cancelledIterator = cancelled.makeAsyncIterator()
  let sawCancellation = await cancelledIterator.next()
  return (sawCancellation, await consumer.value)
}

/// Something a stream's work holds on to, to show when the work is released.
private final class WorkHandle: Sendable {
  let value = 0
}
