/// Signs a person in.
public protocol LogInUseCase: Sendable {
  /// Starts a login and returns its one outcome. Blank fields fail with
  /// ``DomainError/invalidInput(message:)`` without contacting the server.
  func callAsFunction(username: String, password: String) -> OutcomeStream<User, DomainError>
}
