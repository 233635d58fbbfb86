/// Finds todos by their title.
public protocol SearchTodosUseCase: Sendable {
  /// Starts a search for the todos whose title contains `query` and returns its one outcome.
  func callAsFunction(_ query: String) -> OutcomeStream<[Todo], DomainError>
}
