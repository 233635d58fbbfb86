/// Loads the todo list for a screen, fast first and fresh after.
public protocol ObserveTodosUseCase: Sendable {
  /// Yields the cached list at once when there is one, then the fresh list or the failure that
  /// prevented it. The stream never throws, and stopping to listen cancels the fetch.
  func callAsFunction() -> OutcomeStream<Snapshot<[Todo]>, DomainError>
}
