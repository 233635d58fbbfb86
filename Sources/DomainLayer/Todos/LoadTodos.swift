/// Loads todos from a ``TodoRepository`` and delivers the result as an ``OutcomeStream``.
public struct LoadTodos: LoadTodosUseCase {
  private let repository: any TodoRepository

  /// Creates the use case on top of the repository that knows where todos live.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  public func callAsFunction() -> OutcomeStream<[Todo]> {
    .outcome { [repository] () async throws(DomainError) in
      try await repository.todos()
    }
  }
}
