import AppComposition
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The todo search, as a screen types into it", .timeLimit(.minutes(1)))
struct TodoSearchScreenTests {
  @Test(
    "typing seven characters fast sends the server one search, for all seven",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func typingSendsOneSearch(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let clock = TestClock()
      let screen = app.container.makeTodoSearchViewModel(clock: clock)
      // Six keystrokes 50 ms apart, then the seventh, whose search the test waits for.
      var typed = ""
      for character in "veniam" {
        typed.append(character)
        screen.send(.queryChanged(typed))
        clock.advance(by: .milliseconds(50))
      }
      let lastSearch = Task { await screen.sendAndWait(.queryChanged(typed + " ")) }
      try await clock.waitForSleepers(count: 1)
      clock.advance(by: SearchListFeature<Todo>.pause)
      await lastSearch.value

      #expect(screen.state.query == "veniam ")
      #expect(!screen.state.results.isEmpty)
      #expect(screen.state.results.allSatisfy { $0.title.contains("veniam ") })
      #expect(try await connection.counters().paths["GET /todos"] == 1)
      if kind == .loopback {
        let lines = try await connection.received().map(\.line).filter { $0.hasPrefix("GET /todos") }
        #expect(lines == ["GET /todos?q=veniam%20 HTTP/1.1"])
      }
    }
  }
}
