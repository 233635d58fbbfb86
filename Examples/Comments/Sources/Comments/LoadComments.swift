public import DomainLayer

/// Loads a todo's comments.
public protocol LoadCommentsUseCase: Sendable {
  /// Yields the comments on the todo with `todoID`, or the failure that prevented it.
  func callAsFunction(todoID: Int) -> OutcomeStream<[TodoComment], DomainError>
}

/// Loads a todo's comments from a ``TodoCommentRepository``.
public struct LoadComments: LoadCommentsUseCase {
  private let repository: any TodoCommentRepository

  /// Creates the use case.
  public init(repository: any TodoCommentRepository) {
    self.repository = repository
  }

  /// Yields the comments on the todo with `todoID`, or the failure that prevented it.
  public func callAsFunction(todoID: Int) -> OutcomeStream<[TodoComment], DomainError> {
    .outcome { [repository] () async throws(DomainError) in try await repository.comments(onTodo: todoID) }
  }
}
