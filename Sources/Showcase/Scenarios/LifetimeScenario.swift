import DomainLayer
import PresentationLayer

extension Scenario {
  /// Seed scenario 6.
  static let closedScreenCancels = Scenario(
    name: "close-cancels",
    title: "A screen closed mid-request cancels the request and is released"
  ) { stage in
    await stage.signIn()

    stage.step(
      "open the todo list while the server takes 30 s to answer, then close it",
      through: "TodoListViewModel → ObserveTodos → RemoteTodoRepository → URLSessionHTTPClient → GET /todos"
    )
    try await stage.control.inject(["path": "/todos", "delay": 30])
    let before = try await stage.control.counters()
    var screen: TodoListViewModel? = stage.container.makeTodoListViewModel()
    weak let released = screen
    screen?.send(.refresh)
    // Bounded, as the wait below is: a request that never arrives fails the checks, not the run.
    var requests = try await stage.control.counters().requests
    for _ in 0..<1_000 where requests == before.requests {
      try await Task.sleep(for: .milliseconds(5))
      requests = try await stage.control.counters().requests
    }
    screen = nil
    stage.expect(released == nil, "the closed screen's view model is released at once")

    var cancelled = try await stage.control.counters().cancelled - before.cancelled
    for _ in 0..<200 where cancelled == 0 {
      try await Task.sleep(for: .milliseconds(10))
      cancelled = try await stage.control.counters().cancelled - before.cancelled
    }
    stage.show("requests the server saw abandoned", cancelled)
    stage.expect(cancelled == 1, "the server saw the request cancelled")
  }
}
