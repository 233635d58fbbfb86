/// Follows the session through a ``SessionRepository``.
public struct ObserveSession: ObserveSessionUseCase {
  private let repository: any SessionRepository

  /// Creates the use case.
  public init(repository: any SessionRepository) {
    self.repository = repository
  }

  public func callAsFunction() -> AsyncStream<Session> {
    repository.sessionUpdates()
  }
}
