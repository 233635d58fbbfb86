/// Signs people in and out, and tells who is signed in.
///
/// Implementations report failures as ``DomainError`` and publish every change of the
/// ``Session``, including one the user did not ask for, such as the server ending it.
public protocol SessionRepository: Sendable {
  /// Signs in; on success the session becomes ``Session/signedIn``.
  func logIn(username: String, password: String) async throws(DomainError) -> User
  /// Signs out; the session becomes ``Session/signedOut``. Never fails: forgetting is possible.
  func logOut() async
  /// The current session at once, then every change. Any number of observers may listen.
  func sessionUpdates() -> AsyncStream<Session>
}
