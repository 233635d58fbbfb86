import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ViewModel runtime: in-flight policies", .timeLimit(.minutes(1)))
@MainActor
struct RuntimePolicyTests {
  @Test("merge runs new work alongside the work in flight")
  func mergeRunsBoth() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.prefetch("a"))
    viewModel.send(.prefetch("b"))
    // Both reached the backend while neither had an answer: they are in flight together.
    await backend.waitFor(.started("prefetch a"))
    await backend.waitFor(.started("prefetch b"))
    backend.answer("prefetch b")
    backend.answer("prefetch a")
    await backend.waitFor(.returned("prefetch a"))
    await backend.waitFor(.returned("prefetch b"))
    #expect(viewModel.state.prefetched == ["a", "b"])
  }

  @Test("latest cancels the lane's work in flight, whose late result and events never show")
  func latestCancelsPrevious() async {
    let backend = ScriptedBackend()
    let store = TestStore(SearchFeature(backend: backend), initialState: SearchFeature.State())
    store.send(.typed("a")) { $0.query = "a" }
    await store.receive { $0.isSearching = true }
    await backend.waitFor(.started("search a"))
    // The new search's `searchStarted` changes nothing, so it publishes nothing.
    store.send(.typed("ab")) { $0.query = "ab" }
    await backend.waitFor(.cancelled("search a"))
    await backend.waitFor(.returned("search a"))
    backend.answer("search ab", with: .success(["abc"]))
    // The cancelled search's `searchFinished(.failure(.cancelled))` and its event never arrive:
    // the store would fail on either.
    await store.receive {
      $0.isSearching = false
      $0.results = ["abc"]
    }
    await store.receive(event: .searched("ab"))
    await store.finish()
  }

  @Test("latest ignores superseded work that never checks for cancellation")
  func latestIgnoresStubbornWork() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend, searchesIgnoreCancellation: true)
    let states = StreamRecorder(viewModel.states)
    let events = StreamRecorder(viewModel.events)
    viewModel.send(.typed("a"))
    await backend.waitFor(.started("search a"))
    viewModel.send(.typed("ab"))
    backend.answer("search ab", with: .success(["fresh"]))
    await backend.waitFor(.returned("search ab"))
    // The superseded search runs to its end and applies and emits: nothing of it may show.
    backend.answer("search a", with: .success(["stale"]))
    await backend.waitFor(.returned("search a"))
    #expect(backend.count(of: .cancelled("search a")) == 0, "it never noticed being cancelled")

    #expect(viewModel.state.results == ["fresh"])

    // One more search, so that both recorders have caught up with everything before it.
    backend.answer("search barrier", with: .success(["barrier"]))
    viewModel.send(.typed("barrier"))
    #expect(await events.waitForCount(2) == [.searched("ab"), .searched("barrier")])
    let recorded = await states.waitUntil { $0.last?.results == ["barrier"] }
    #expect(!recorded.contains { $0.results == ["stale"] })
  }

  @Test(
    "dropWhileBusy ignores a second tap while the first login is in flight, and the immediate effects planned with it"
  )
  func dropWhileBusyDropsSecondTap() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    let firstTap = Task { await viewModel.sendAndWait(.logIn) }
    await backend.waitFor(.started("login"))
    viewModel.send(.logIn)
    #expect(viewModel.state.logInTaps == 1)
    backend.answer("login", with: .failure(.offline))
    // Returns once the view model has seen the first login end; the backend's note of its return
    // comes a moment earlier, when a tap could still be dropped.
    await firstTap.value
    #expect(backend.count(of: .started("login")) == 1)

    // Once the lane is idle again, the next tap logs in.
    backend.answer("login")
    await viewModel.sendAndWait(.logIn)
    await backend.waitFor(.returned("login"), times: 2)
    #expect(backend.count(of: .started("login")) == 2)
    #expect(viewModel.state.isSignedIn)
    #expect(viewModel.state.logInTaps == 2)
  }

  @Test("a burst of concurrent taps starts exactly one login")
  func dropWhileBusyUnderConcurrency() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 { group.addTask { await viewModel.send(.logIn) } }
    }
    #expect(viewModel.state.logInTaps == 1, "only the tap that started the login counts")
    await backend.waitFor(.started("login"))
    backend.answer("login")
    await backend.waitFor(.returned("login"))
    #expect(backend.count(of: .started("login")) == 1)
    #expect(viewModel.state.isSignedIn)
  }

  @Test("dropped work takes only the effects planned with it: those of an action beside it apply")
  func dropWhileBusyKeepsEffectsBesideIt() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.logIn)
    await backend.waitFor(.started("login"))
    // The search's query and the second tap are planned as one action, the search's first.
    viewModel.send(.both(.typed("ab"), .logIn))
    #expect(viewModel.state.query == "ab")
    #expect(viewModel.state.logInTaps == 1)
    viewModel.send(.both(.logIn, .typed("abc")))
    #expect(viewModel.state.query == "abc")
    #expect(viewModel.state.logInTaps == 1)
    backend.answer("search abc")
    backend.answer("login")
    await backend.waitFor(.returned("login"))
    #expect(backend.count(of: .started("login")) == 1)
  }

  @Test("queue runs the lane's work one at a time, in send order, whatever order the answers come in")
  func queueIsFirstInFirstOut() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    for item in ["1", "2", "3"] { viewModel.send(.save(item)) }
    #expect(viewModel.state.pendingSaves == ["1", "2", "3"])
    await backend.waitFor(.started("save 1"))
    backend.answer("save 3")
    backend.answer("save 2")
    backend.answer("save 1")
    let journal = await backend.waitFor(.returned("save 3"))
    let saves = journal.filter { note in
      ["1", "2", "3"].contains { note == .started("save \($0)") || note == .returned("save \($0)") }
    }
    #expect(viewModel.state.saved == ["1", "2", "3"])
    #expect(
      saves == [
        .started("save 1"), .returned("save 1"),
        .started("save 2"), .returned("save 2"),
        .started("save 3"), .returned("save 3"),
      ])
  }

  @Test("queued work cancelled before its turn never starts")
  func cancelledQueuedWorkNeverStarts() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.save("1"))
    viewModel.send(.save("2"))
    await backend.waitFor(.started("save 1"))
    // `latest` in the save lane cancels both the running save and the one waiting its turn.
    await viewModel.sendAndWait(.discardSaves)
    await backend.waitFor(.cancelled("save 1"))
    backend.answer("save 2")  // would let save 2 through at once, if it ever started
    backend.answer("save 3")
    await viewModel.sendAndWait(.save("3"))
    await backend.waitFor(.returned("save 3"))
    #expect(backend.count(of: .started("save 2")) == 0)
    #expect(viewModel.state.saved == ["3"])
    #expect(viewModel.state.pendingSaves.isEmpty)
  }

  @Test("lanes are independent: a new search does not cancel a save in flight")
  func lanesAreIndependent() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.save("draft"))
    await backend.waitFor(.started("save draft"))
    viewModel.send(.typed("a"))
    await backend.waitFor(.started("search a"))
    viewModel.send(.typed("ab"))
    await backend.waitFor(.cancelled("search a"))
    backend.answer("save draft")
    await backend.waitFor(.returned("save draft"))
    #expect(viewModel.state.saved == ["draft"])
    #expect(backend.count(of: .cancelled("save draft")) == 0)
  }

  @Test("lanes with values are told apart by them: a row's new refresh cancels that row's, no other's")
  func lanesAreComparedByValue() async {
    let backend = ScriptedBackend()
    let viewModel = ViewModel(backend: backend)
    viewModel.send(.refreshRow(id: "a", section: "inbox", attempt: 1))
    viewModel.send(.refreshRow(id: "b", section: "inbox", attempt: 1))
    viewModel.send(.refreshRow(id: "a", section: "archive", attempt: 1))
    for request in ["refresh inbox/a 1", "refresh inbox/b 1", "refresh archive/a 1"] {
      await backend.waitFor(.started(request))
    }
    viewModel.send(.refreshRow(id: "a", section: "inbox", attempt: 2))
    await backend.waitFor(.cancelled("refresh inbox/a 1"))
    let answered = ["refresh inbox/b 1", "refresh archive/a 1", "refresh inbox/a 2"]
    for request in answered { backend.answer(request) }
    for request in answered { await backend.waitFor(.returned(request)) }
    #expect(backend.count(of: .cancelled("refresh inbox/b 1")) == 0)
    #expect(backend.count(of: .cancelled("refresh archive/a 1")) == 0)
    #expect(viewModel.state.refreshedRows == ["inbox/b 1", "archive/a 1", "inbox/a 2"])
  }
}
