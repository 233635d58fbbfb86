/// Whether someone is signed in.
public enum Session: Sendable, Hashable {
  /// Nobody is signed in.
  case signedOut
  /// Someone is signed in and requests carry their credentials.
  case signedIn
  /// The session ended without the user asking (it could not be renewed); they must sign in again.
  case expired
}
