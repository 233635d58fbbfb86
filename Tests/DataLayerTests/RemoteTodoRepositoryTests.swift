import DataLayer
import DomainLayer
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("RemoteTodoRepository")
struct RemoteTodoRepositoryTests {
  private func repository(for connection: SampleBackendConnection) -> RemoteTodoRepository {
    RemoteTodoRepository(
      client: URLSessionHTTPClient(baseURL: connection.baseURL, session: connection.session))
  }

  private func load(_ repository: RemoteTodoRepository) async -> Result<[Todo], DomainError> {
    do throws(DomainError) {
      return .success(try await repository.todos())
    } catch {
      return .failure(error)
    }
  }

  @Test("loads the sample API's 200 todos as entities", arguments: SampleBackendKind.allCases)
  func loads(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let todos = try await load(repository(for: connection)).get()
      #expect(todos.count == 200)
      #expect(todos.first?.userID == 1)
      #expect(Set(todos.map(\.userID)) == Set(1...10))
    }
  }

  @Test("a server error surfaces as a domain server error")
  func serverError() async throws {
    try await SampleBackendKind.embedded.with { connection in
      try await connection.inject(.init(path: "/todos", status: 503))
      #expect(await load(repository(for: connection)) == .failure(.server(status: 503)))
    }
  }

  @Test("one invalid todo in the list fails the load as invalid data instead of crashing")
  func invalidTodo() async {
    let mount = StubHandler.mount(
      status: 200,
      body:
        #"[{"userId":1,"id":1,"title":"ok","completed":false},{"userId":1,"id":2,"title":"","completed":false}]"#
    )
    defer { mount.unmount() }
    let repository = RemoteTodoRepository(
      client: URLSessionHTTPClient(baseURL: mount.baseURL, session: mount.makeSession())
    )
    guard case .failure(.invalidData) = await load(repository) else {
      Issue.record("expected invalid data")
      return
    }
  }
}
