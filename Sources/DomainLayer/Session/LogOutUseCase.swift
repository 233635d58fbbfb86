/// Signs the current person out.
public protocol LogOutUseCase: Sendable {
  /// Signs out; the stream yields once when done. Signing out cannot fail.
  func callAsFunction() -> OutcomeStream<Void, DomainError>
}
