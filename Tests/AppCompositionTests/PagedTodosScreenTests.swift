import AppComposition
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The todo list page by page, as a screen shows it", .timeLimit(.minutes(1)))
struct PagedTodosScreenTests {
  @Test(
    "the whole list arrives in ten pages of twenty, and the last one ends the list",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func wholeListInPages(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let screen = app.container.makeTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      var taps = 0
      while !screen.state.hasReachedEnd, taps < 20 {
        await screen.sendAndWait(.loadMoreTapped)
        taps += 1
      }
      #expect(screen.state.items.map(\.id) == Array(1...200))
      #expect(screen.state.hasReachedEnd)
      let lists = try await connection.counters().paths["GET /todos"]
      #expect(lists == 10)
    }
  }

  @Test("tapping load more twice at once asks the server for one page", arguments: SampleBackendKind.allCases)
  @MainActor
  func doubleTapLoadsOnePage(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let screen = app.container.makeTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      screen.send(.loadMoreTapped)
      await screen.sendAndWait(.loadMoreTapped)
      // The first tap's work is the one in flight: wait for its page.
      while screen.state.isLoadingMore { try await Task.sleep(for: .milliseconds(5)) }
      #expect(screen.state.items.count == 40)
      let lists = try await connection.counters().paths["GET /todos"]
      #expect(lists == 2)
    }
  }

  @Test(
    "a refresh during a slow load more cancels it at the server and starts the list again",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func refreshCancelsLoadMore(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let screen = app.container.makeTodoPagesViewModel()
      await screen.sendAndWait(.appeared)
      try await connection.inject(.init(path: "/todos", method: "GET", count: 1, delay: 30))
      screen.send(.loadMoreTapped)
      try await app.waitForRequest("GET /todos", count: 2)

      await screen.sendAndWait(.refreshTapped)

      #expect(screen.state.items.map(\.id) == Array(1...20))
      #expect(!screen.state.isLoadingMore)
      #expect(screen.state.phase == .loaded)
      let cancelled = try await connection.counters(once: { $0.cancelled >= 1 }).cancelled
      #expect(cancelled >= 1, "the server saw the load more go away")
      let lists = try await connection.counters().paths["GET /todos"]
      #expect(lists == 3)
      try await connection.releaseDelays()
    }
  }
}
