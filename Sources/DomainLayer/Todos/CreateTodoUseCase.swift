/// Adds a todo.
public protocol CreateTodoUseCase: Sendable {
  /// Creates a todo titled `title`. A blank title fails with ``DomainError/invalidInput(message:)``
  /// without contacting the server.
  func callAsFunction(title: String) -> OutcomeStream<Todo, DomainError>
}
