import LayeredTestSupport
import PresentationLayer
import Testing

/// A test store told to be non-exhaustive asserts what the test names and skips the rest, but
/// still fails on a named state that never comes, a wrong value, and unfinished work.
@Suite("TestStore with exhaustivity off", .timeLimit(.minutes(1)))
@MainActor
struct NonExhaustiveTestStoreTests {
  private let backend = ScriptedBackend()

  private func store(
    _ exhaustivity: TestStore<SearchFeature>.Exhaustivity = .off(),
    timeout: Duration = TestStore<SearchFeature>.defaultTimeout
  ) -> TestStore<SearchFeature> {
    TestStore(
      SearchFeature(backend: backend), initialState: SearchFeature.State(), exhaustivity: exhaustivity,
      timeout: timeout)
  }

  @Test("it skips the states and events the test does not name and checks the one it does")
  func skipsToTheNamedState() async {
    let store = store()
    store.send(.typed("a"))
    await backend.waitFor(.started("search a"))
    backend.answer("search a", with: .success(["abc"]))
    // `isSearching = true` and the `searched` event go by unasserted.
    await store.receive { $0.results = ["abc"] }
    #expect(store.state.isSearching == false)
    await store.finish()
  }

  @Test("a sent action is checked only for the values the test sets")
  func sendChecksNamedValues() async {
    let store = store()
    store.send(.both(.typed("a"), .logIn)) { $0.logInTaps = 1 }
    withKnownIssue {
      store.send(.both(.typed("ab"), .logIn)) { $0.logInTaps = 3 }
    } matching: {
      $0.comments.contains { $0.rawValue.contains("left a state other than the one asserted") }
    }
    backend.answer("search ab")
    backend.answer("login")
    await store.finish()
  }

  @Test("a named event is found among others")
  func findsTheNamedEvent() async {
    let store = store()
    store.send(.typed("a"))
    backend.answer("search a", with: .success(["abc"]))
    await store.receive(event: .searched("a"))
    await store.finish()
  }

  @Test("a named state that never comes is still an issue")
  func missingStateFails() async {
    let store = store()
    store.send(.typed("a"))
    backend.answer("search a", with: .success(["abc"]))
    await withKnownIssue {
      await store.receive { $0.results = ["never"] }
    } matching: {
      $0.comments.contains { $0.rawValue.contains("no work is left that could produce it") }
    }
    await store.finish()
  }

  @Test("work still running at the end is an issue unless the test says otherwise")
  func unfinishedWork() async {
    let strict = store(.off(), timeout: .milliseconds(200))
    strict.send(.probe("forever"))
    await backend.waitFor(.started("forever"))
    await withKnownIssue {
      await strict.finish()
    } matching: {
      $0.comments.contains { $0.rawValue.contains("Work was still running when the test ended") }
    }

    let lenient = store(.off(failsOnUnfinishedWork: false))
    lenient.send(.probe("also forever"))
    await backend.waitFor(.started("also forever"))
    await lenient.finish()
    await backend.waitFor(.cancelled("also forever"))
  }
}
