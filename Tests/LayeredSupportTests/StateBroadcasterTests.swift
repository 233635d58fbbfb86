import LayeredSupport
import Testing

@Suite("StateBroadcaster", .timeLimit(.minutes(1)))
struct StateBroadcasterTests {
  @Test("every observer gets the current value first, then every change, in order")
  func currentThenChanges() async {
    let broadcaster = StateBroadcaster(0)
    let early = broadcaster.values()
    broadcaster.update { $0 = 1 }
    let late = broadcaster.values()
    broadcaster.update { $0 = 2 }
    broadcaster.finish()
    #expect(await early.reduce(into: []) { $0.append($1) } == [0, 1, 2])
    #expect(await late.reduce(into: []) { $0.append($1) } == [1, 2])
  }

  @Test("observers cancelled while values are being delivered never deadlock the broadcaster")
  func cancellationDuringDelivery() async {
    let broadcaster = StateBroadcaster(0)
    for round in 0..<500 {
      let observer = Task {
        for await _ in broadcaster.values() {}
      }
      async let updates: Void = {
        for step in 0..<4 { broadcaster.update { $0 = round * 4 + step } }
      }()
      observer.cancel()
      await updates
      await observer.value
    }
    #expect(broadcaster.value == 1_999)
  }
}
