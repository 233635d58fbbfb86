import Foundation

/// Adds a todo through a ``TodoRepository``, after checking the title.
public struct CreateTodo: CreateTodoUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  public func callAsFunction(title: String) -> OutcomeStream<Todo> {
    .outcome { [repository] () async throws(DomainError) in
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { throw .invalidInput(message: "A todo needs a title.") }
      return try await repository.createTodo(title: trimmed)
    }
  }
}
