/// Signs out through a ``SessionRepository``.
public struct LogOut: LogOutUseCase {
  private let repository: any SessionRepository

  /// Creates the use case.
  public init(repository: any SessionRepository) {
    self.repository = repository
  }

  /// Signs out and yields once when the session has ended. Never yields a failure.
  public func callAsFunction() -> OutcomeStream<Void, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      await repository.logOut()
    }
  }
}
