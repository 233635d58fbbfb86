import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("TodoListViewModel")
struct TodoListViewModelTests {
  @Test("refresh shows loading, then the loaded list")
  func loadingThenLoaded() async {
    let viewModel = TodoListViewModel(loadTodos: ScriptedLoadTodos([.success(Fixtures.todos)]))
    let recorder = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.refresh)
    let states = await recorder.waitForCount(3)
    #expect(states == [.idle, .loading, .loaded(Fixtures.todos)])
  }

  @Test("a failed refresh shows loading, then a message a person can read")
  func loadingThenFailed() async {
    let viewModel = TodoListViewModel(loadTodos: ScriptedLoadTodos([.failure(.offline)]))
    let recorder = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.refresh)
    let states = await recorder.waitForCount(3)
    #expect(states == [.idle, .loading, .failed(message: DomainError.offline.message)])
  }

  @Test("after any number of failures the next refresh still loads: the input stream survived")
  func inputSurvivesFailures() async {
    let failures: [Outcome<[Todo]>?] = [
      .failure(.offline), .failure(.server(status: 500)), .failure(.timeout),
    ]
    let viewModel = TodoListViewModel(loadTodos: ScriptedLoadTodos(failures + [.success(Fixtures.todos)]))
    let recorder = StreamRecorder(viewModel.states)
    for _ in 0..<4 { await viewModel.sendAndWait(.refresh) }
    let states = await recorder.waitForCount(9)
    #expect(
      states == [
        .idle,
        .loading, .failed(message: DomainError.offline.message),
        .loading, .failed(message: DomainError.server(status: 500).message),
        .loading, .failed(message: DomainError.timeout.message),
        .loading, .loaded(Fixtures.todos),
      ]
    )
  }

  @Test("a new refresh cancels the one in flight, whose late result never shows")
  func latestWins() async {
    let useCase = ScriptedLoadTodos([nil, .success(Fixtures.todos)])
    let viewModel = TodoListViewModel(loadTodos: useCase)
    let recorder = StreamRecorder(viewModel.states)
    viewModel.send(.refresh)
    await recorder.waitForCount(2)
    await viewModel.sendAndWait(.refresh)
    useCase.release(.success([]))
    let states = await recorder.waitForCount(4)
    #expect(states == [.idle, .loading, .loading, .loaded(Fixtures.todos)])
    #expect(useCase.cancellations == 1)
  }

  @Test("every observer gets the current state first, then every change")
  func multicast() async {
    let viewModel = TodoListViewModel(
      loadTodos: ScriptedLoadTodos([.success(Fixtures.todos), .failure(.timeout)]))
    let early = StreamRecorder(viewModel.states)
    await viewModel.sendAndWait(.refresh)
    let late = StreamRecorder(viewModel.states)
    await late.waitForCount(1)
    await viewModel.sendAndWait(.refresh)
    let failed = TodoListState.failed(message: DomainError.timeout.message)
    #expect(await early.waitForCount(5) == [.idle, .loading, .loaded(Fixtures.todos), .loading, failed])
    #expect(await late.waitForCount(3) == [.loaded(Fixtures.todos), .loading, failed])
  }

  @Test("releasing the view model cancels its in-flight load and finishes its state streams")
  func releaseCancels() async {
    let useCase = ScriptedLoadTodos([nil])
    var viewModel: TodoListViewModel? = TodoListViewModel(loadTodos: useCase)
    weak let weakViewModel = viewModel
    let recorder = StreamRecorder(viewModel?.states ?? AsyncStream { $0.finish() })
    viewModel?.send(.refresh)
    await recorder.waitForCount(2)
    viewModel = nil
    #expect(weakViewModel == nil, "in-flight work must not keep the view model alive")
    let states = await recorder.waitUntil { _ in false }
    #expect(states == [.idle, .loading])
    for _ in 0..<1_000 where useCase.cancellations == 0 {
      try? await Task.sleep(for: .milliseconds(5))
    }
    #expect(useCase.cancellations == 1)
  }

  @Test("the reducer is pure: a cancelled load leaves the state as it was")
  func reducerIgnoresCancellation() {
    var state = TodoListState.loaded(Fixtures.todos)
    TodoListViewModel.reduce(&state, .loadFinished(.failure(.cancelled)))
    #expect(state == .loaded(Fixtures.todos))
    TodoListViewModel.reduce(&state, .loadStarted)
    #expect(state == .loading)
  }
}
