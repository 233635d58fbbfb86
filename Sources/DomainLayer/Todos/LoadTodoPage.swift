/// Loads pages of todos from a ``TodoRepository``.
public struct LoadTodoPage: LoadTodoPageUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  /// Loads one page and yields it, or the reason there is none.
  public func callAsFunction(after token: PageToken?) -> OutcomeStream<ListPage<Todo>, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      try await repository.todoPage(after: token)
    }
  }
}
