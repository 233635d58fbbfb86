/// Follows whether someone is signed in.
public protocol ObserveSessionUseCase: Sendable {
  /// The current session at once, then every change, for as long as the caller listens.
  func callAsFunction() -> AsyncStream<Session>
}
