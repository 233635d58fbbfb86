/// Follows the session through a ``SessionRepository``.
public struct ObserveSession: ObserveSessionUseCase {
  private let repository: any SessionRepository

  /// Creates the use case.
  public init(repository: any SessionRepository) {
    self.repository = repository
  }

  /// The current session at once, then every change, including ones the user did not ask for,
  /// for as long as the caller listens.
  public func callAsFunction() -> AsyncStream<Session> {
    repository.sessionUpdates()
  }
}
