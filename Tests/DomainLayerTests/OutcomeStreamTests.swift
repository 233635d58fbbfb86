import DomainLayer
import Testing

@Suite("The async→stream helper")
struct OutcomeStreamTests {
  @Test("a successful call yields one value and then finishes")
  func successIsOneElement() async {
    let stream = OutcomeStream<Int>.outcome { () async throws(DomainError) in 42 }
    var received: [Outcome<Int>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.success(42)])
  }

  @Test("a thrown error arrives as an element, so the consumer's loop is not ended by it")
  func failureIsAnElement() async {
    let stream = OutcomeStream<Int>.outcome { () async throws(DomainError) -> Int in throw .offline }
    var received: [Outcome<Int>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.failure(.offline)])
  }

  @Test("a stream may yield several outcomes, failures included, in order")
  func severalOutcomes() async {
    let stream = OutcomeStream<String>.outcomes { sink in
      sink.yield("cached")
      sink.yield(failure: .timeout)
      sink.yield("fresh")
    }
    var received: [Outcome<String>] = []
    for await outcome in stream { received.append(outcome) }
    #expect(received == [.success("cached"), .failure(.timeout), .success("fresh")])
  }

  @Test("when the consumer stops listening, the work is cancelled")
  func consumerLeavingCancelsWork() async {
    let started = AsyncStream.makeStream(of: Void.self)
    let cancelled = AsyncStream.makeStream(of: Bool.self)
    let stream = OutcomeStream<Int>.outcome { () async throws(DomainError) -> Int in
      started.continuation.yield()
      do {
        try await Task.sleep(for: .seconds(600))
      } catch {
        cancelled.continuation.yield(Task.isCancelled)
        throw .cancelled
      }
      return 0
    }
    let consumer = Task {
      for await _ in stream {}
    }
    var startedIterator = started.stream.makeAsyncIterator()
    await startedIterator.next()
    consumer.cancel()
    var cancelledIterator = cancelled.stream.makeAsyncIterator()
    let sawCancellation = await cancelledIterator.next()
    #expect(sawCancellation == true)
  }

  @Test("dropping the stream without listening cancels the work")
  func droppedStreamCancelsWork() async {
    let finished = AsyncStream.makeStream(of: Bool.self)
    do {
      let stream = OutcomeStream<Int>.outcome { () async throws(DomainError) -> Int in
        do {
          try await Task.sleep(for: .seconds(600))
        } catch {
          finished.continuation.yield(true)
          throw .cancelled
        }
        return 0
      }
      _ = consume stream
    }
    var iterator = finished.stream.makeAsyncIterator()
    #expect(await iterator.next() == true)
  }
}
