public import DomainLayer
import Foundation

/// Adds a comment to a todo.
public protocol AddCommentUseCase: Sendable {
  /// Adds `body` to the todo with `todoID`. A blank body fails with
  /// `DomainError.invalidInput(message:)` without contacting the server.
  func callAsFunction(_ body: String, todoID: Int) -> OutcomeStream<TodoComment, DomainError>
}

/// Adds a comment through a ``TodoCommentRepository``, after checking the body.
public struct AddComment: AddCommentUseCase {
  private let repository: any TodoCommentRepository

  /// Creates the use case.
  public init(repository: any TodoCommentRepository) {
    self.repository = repository
  }

  /// Adds `body`, trimmed, to the todo with `todoID`; a blank body never reaches the server.
  public func callAsFunction(_ body: String, todoID: Int) -> OutcomeStream<TodoComment, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !trimmed.isEmpty else { throw .invalidInput(message: "A comment needs some words.") }
      return try await repository.addComment(trimmed, toTodo: todoID)
    }
  }
}
