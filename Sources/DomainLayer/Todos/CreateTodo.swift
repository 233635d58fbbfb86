import Foundation

/// Adds a todo through a ``TodoRepository``, after checking the title.
public struct CreateTodo: CreateTodoUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  /// Creates a todo titled `title`, trimmed of surrounding whitespace, and yields it as the
  /// server stored it. A blank title yields ``DomainError/invalidInput(message:)`` without
  /// reaching the repository; the stream ends after its one outcome.
  public func callAsFunction(title: String) -> OutcomeStream<Todo, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { throw .invalidInput(message: "A todo needs a title.") }
      return try await repository.createTodo(title: trimmed)
    }
  }
}
