/// The person using the app, as far as the app knows them.
public struct User: Sendable, Hashable {
  /// The name they signed in with.
  public let username: String

  /// Creates a user.
  public init(username: String) {
    self.username = username
  }
}
