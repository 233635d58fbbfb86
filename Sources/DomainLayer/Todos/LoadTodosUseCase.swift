/// Loads the todo list for a screen.
///
/// The stream it returns has the guarantees of every ``OutcomeStream``: it never throws, and
/// stopping to listen cancels the load.
public protocol LoadTodosUseCase: Sendable {
  /// Starts a load and returns its outcomes.
  func callAsFunction() -> OutcomeStream<[Todo]>
}
