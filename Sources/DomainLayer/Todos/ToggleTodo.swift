/// Flips a todo's completion through a ``TodoRepository``.
public struct ToggleTodo: ToggleTodoUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  /// Sets `todo` to the opposite of its completion at the server and yields the todo as stored.
  public func callAsFunction(_ todo: Todo) -> OutcomeStream<Todo, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      try await repository.setCompleted(!todo.isCompleted, forTodoWithID: todo.id)
    }
  }
}
