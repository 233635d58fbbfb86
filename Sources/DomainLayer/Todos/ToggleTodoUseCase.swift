/// Marks a todo done, or not done any more.
public protocol ToggleTodoUseCase: Sendable {
  /// Flips `todo`'s completion at the server and yields the todo as stored.
  func callAsFunction(_ todo: Todo) -> OutcomeStream<Todo, DomainError>
}
