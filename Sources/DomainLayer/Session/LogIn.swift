import Foundation

/// Signs in through a ``SessionRepository``, after checking the input.
public struct LogIn: LogInUseCase {
  private let repository: any SessionRepository

  /// Creates the use case.
  public init(repository: any SessionRepository) {
    self.repository = repository
  }

  /// Signs in with `username` trimmed of the whitespace around it, line breaks too, and `password`
  /// as typed (passed on unchanged, never put in an error), and yields the signed-in user. A blank
  /// field yields ``DomainError/invalidInput(message:)`` without reaching the repository.
  public func callAsFunction(username: String, password: String) -> OutcomeStream<User, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      let name = username.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !name.isEmpty, !password.isEmpty else {
        throw .invalidInput(message: "Enter both your username and your password.")
      }
      return try await repository.logIn(username: name, password: password)
    }
  }
}
