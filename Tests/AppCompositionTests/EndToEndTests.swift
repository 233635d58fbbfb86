import AppComposition
import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The composition root, end to end")
struct EndToEndTests {
  @Test(
    "the live graph delivers the sample API's 200 todos to the view model",
    arguments: SampleBackendKind.allCases)
  func deliversTodos(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let container = AppContainer(
        configuration: AppConfiguration(baseURL: connection.baseURL, session: connection.session)
      )
      let viewModel = container.makeTodoListViewModel()
      await viewModel.sendAndWait(.refresh)
      guard case .loaded(let todos) = viewModel.state else {
        Issue.record("expected the list, got \(viewModel.state)")
        return
      }
      #expect(todos.count == 200)
      #expect(todos.map(\.id) == Array(1...200))
      let counters = try await connection.counters()
      #expect(counters.paths["GET /todos"] == 1)
    }
  }

  @Test("a server failure reaches the screen as a readable message, and the next refresh loads")
  func failureThenRecovery() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let container = AppContainer(
        configuration: AppConfiguration(baseURL: connection.baseURL, session: connection.session)
      )
      let viewModel = container.makeTodoListViewModel()
      // Three failures: the first attempt and both of the retry policy's retries.
      try await connection.inject(.init(path: "/todos", count: 3, status: 500))
      await viewModel.sendAndWait(.refresh)
      #expect(viewModel.state == .failed(message: DomainError.server(status: 500).message))
      #expect(try await connection.counters().paths["GET /todos"] == 3)
      await viewModel.sendAndWait(.refresh)
      guard case .loaded(let todos) = viewModel.state else {
        Issue.record("expected the list after the failure, got \(viewModel.state)")
        return
      }
      #expect(todos.count == 200)
    }
  }
}
