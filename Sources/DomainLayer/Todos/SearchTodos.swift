/// Searches the todos of a ``TodoRepository`` by title.
public struct SearchTodos: SearchTodosUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  /// The todos whose title contains `query`; a blank query finds none, without asking anyone.
  public func callAsFunction(_ query: String) -> OutcomeStream<[Todo], DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      query.isBlank ? [] : try await repository.todos(matching: query)
    }
  }
}
