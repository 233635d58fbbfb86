/// Signs out through a ``SessionRepository``.
public struct LogOut: LogOutUseCase {
  private let repository: any SessionRepository

  /// Creates the use case.
  public init(repository: any SessionRepository) {
    self.repository = repository
  }

  public func callAsFunction() -> OutcomeStream<Void> {
    .outcome { [repository] () async throws(DomainError) in
      await repository.logOut()
    }
  }
}
