import LayeredTestSupport
import PresentationLayer
import Testing

/// The test store is only worth having if it fails: each test here breaks one of its rules and
/// expects the issue it must record, by its words, so that a store failing for another reason, or
/// recording nothing, fails the test.
@Suite("TestStore fails on what a test did not assert", .timeLimit(.minutes(1)))
@MainActor
struct TestStoreTests {
  private func counter() -> TestStore<CounterFeature> {
    TestStore(CounterFeature(), initialState: CounterFeature.State())
  }

  @Test("a state change the test did not assert")
  func unassertedStateChange() async {
    let store = counter()
    withKnownIssue {
      store.send(.increment)
    } matching: {
      $0.says("changed the state, but the test asserted no change")
    }
    await store.finish()
  }

  @Test("a state change asserted wrongly")
  func wrongStateChange() async {
    let store = counter()
    withKnownIssue {
      store.send(.increment) { $0.count = 2 }
    } matching: {
      $0.says("left a state other than the one asserted")
    }
    await store.finish()
  }

  @Test("an event that arrives after everything the test expected")
  func lateEvent() async {
    let store = counter()
    store.send(.announce("late"))
    await withKnownIssue {
      await store.finish()
    } matching: {
      $0.says("Received but not asserted before finishing:\n  - event(")
    }
  }

  @Test("a state change from work that the test did not receive")
  func lateStateChange() async {
    let store = counter()
    await withKnownIssue {
      store.send(.bump)
      await store.finish()
    } matching: {
      $0.says("Received but not asserted before finishing:\n  - state(")
    }
  }

  @Test("an event received where the test expected another")
  func wrongEvent() async {
    let store = counter()
    store.send(.announce("one"))
    await withKnownIssue {
      await store.receive(event: .said("two"))
    } matching: {
      $0.says("Expected event .said(\"two\"), but received event .said(\"one\")")
    }
    await store.finish()
  }

  @Test("an expected change that no work can produce fails instead of hanging")
  func changeThatNeverComes() async {
    let store = counter()
    await withKnownIssue {
      await store.receive { $0.count = 1 }
    } matching: {
      $0.says("no work is left that could produce it")
    }
    await store.finish()
  }

  @Test("work still running when the test ends")
  func workStillRunning() async {
    let backend = ScriptedBackend()
    let store = TestStore(
      SearchFeature(backend: backend), initialState: SearchFeature.State(), timeout: .milliseconds(200))
    store.send(.probe("forever"))
    await backend.waitFor(.started("forever"))
    await withKnownIssue {
      await store.finish()
    } matching: {
      $0.says("Work was still running when the test ended")
    }
  }

  @Test("a store released without finishing")
  func releasedWithoutFinish() {
    withKnownIssue {
      let store = counter()
      store.send(.set(1)) { $0.count = 1 }
    } matching: {
      $0.says("released without `await store.finish()`")
    }
  }
}

extension Issue {
  /// Whether the issue's message contains `words`.
  fileprivate func says(_ words: String) -> Bool {
    comments.contains { $0.rawValue.contains(words) }
  }
}
