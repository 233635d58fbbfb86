/// What the auth interceptor tells the rest of the app about the session.
public enum SessionEvent: Sendable, Hashable {
  /// The server rejected the refresh token: the stored tokens have been cleared and the user
  /// must sign in again. `reason` is the error every waiting request failed with.
  case ended(reason: NetworkError)
}
