import DomainLayer
import LayeredSupport
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("A list searched as the user types", .timeLimit(.minutes(1)))
@MainActor
struct SearchListFeatureTests {
  private let found = Array(Fixtures.todos.prefix(1))

  @Test("typing a word fast searches once, for the word, after the pause")
  func typingSearchesOnce() async throws {
    let search = FakeSearchTodos(script: Script([.success(found)]))
    let store = TestStore(SearchListFeature(search: { search($0) }), initialState: .init())
    var typed = ""
    for character in "layered" {
      typed.append(character)
      store.send(.queryChanged(typed)) { [typed] in $0.query = typed }
      await store.advance(by: .milliseconds(100))
    }
    #expect(search.queries.withLock { $0 }.isEmpty, "typing has not paused yet")
    try await store.clock.waitForSleepers(count: 1)
    await store.advance(by: SearchListFeature<Todo>.pause)
    await store.receive { $0.isSearching = true }
    await store.receive {
      $0.isSearching = false
      $0.results = found
    }
    await store.finish()
    #expect(search.queries.withLock { $0 } == ["layered"])
  }

  @Test("a failed search keeps what was typed and the next search works")
  func failureKeepsInput() async throws {
    let search = FakeSearchTodos(script: Script([.failure(.offline), .success(found)]))
    let store = TestStore(SearchListFeature(search: { search($0) }), initialState: .init())
    store.send(.queryChanged("lay")) { $0.query = "lay" }
    await store.advance(by: SearchListFeature<Todo>.pause)
    await store.receive { $0.isSearching = true }
    await store.receive {
      $0.isSearching = false
      $0.errorMessage = DomainError.offline.message
    }
    store.send(.queryChanged("laye")) { $0.query = "laye" }
    await store.advance(by: SearchListFeature<Todo>.pause)
    await store.receive { $0.isSearching = true }
    await store.receive {
      $0.isSearching = false
      $0.results = found
      $0.errorMessage = nil
    }
    await store.finish()
  }

  @Test("a keystroke during a search cancels it; only the newer query's results show")
  func keystrokeCancelsSearch() async throws {
    let search = FakeSearchTodos(script: Script([nil, .success(found)]))
    let store = TestStore(
      SearchListFeature(search: { search($0) }), initialState: .init(), exhaustivity: .off())
    store.send(.queryChanged("la"))
    await store.advance(by: SearchListFeature<Todo>.pause)
    await search.script.waitForWaiting(1)
    store.send(.queryChanged("lay")) { $0.query = "lay" }
    await store.advance(by: SearchListFeature<Todo>.pause)
    await store.receive { $0.results = found }
    await store.finish()
    #expect(search.script.cancellations == 1)
    #expect(search.queries.withLock { $0 } == ["la", "lay"])
  }
}
