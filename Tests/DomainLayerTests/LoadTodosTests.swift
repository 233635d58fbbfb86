import DomainLayer
import Testing

@Suite("LoadTodos")
struct LoadTodosTests {
  struct ScriptedRepository: TodoRepository {
    let result: Result<[Todo], DomainError>
    func todos() async throws(DomainError) -> [Todo] { try result.get() }
  }

  @Test("delivers the repository's todos as one outcome")
  func deliversTodos() async throws {
    let todos = [try Todo(id: 1, userID: 1, title: "a", isCompleted: false)]
    let useCase = LoadTodos(repository: ScriptedRepository(result: .success(todos)))
    var outcomes: [Outcome<[Todo]>] = []
    for await outcome in useCase() { outcomes.append(outcome) }
    #expect(outcomes == [.success(todos)])
  }

  @Test("delivers the repository's failure as an outcome, not as a thrown error")
  func deliversFailure() async {
    let useCase = LoadTodos(repository: ScriptedRepository(result: .failure(.server(status: 500))))
    var outcomes: [Outcome<[Todo]>] = []
    for await outcome in useCase() { outcomes.append(outcome) }
    #expect(outcomes == [.failure(.server(status: 500))])
  }
}
