/// Loads the todo list a page at a time.
public protocol LoadTodoPageUseCase: Sendable {
  /// Starts a load of the first page (`token` `nil`) or of the page `token` points to, and
  /// returns its one outcome.
  func callAsFunction(after token: PageToken?) -> OutcomeStream<ListPage<Todo>, DomainError>
}
