import LayeredSupport

/// Keeps the session's tokens.
///
/// Where the tokens live (memory, a file, the keychain) is the implementation's business. The
/// methods are synchronous so the auth interceptor reads and decides with no suspension point in
/// between; keep them fast (an in-memory copy in front of any storage). Keep every field
/// (`AuthTokens` is `Codable`): tokens read back without `issuedAt` after a login are renewed
/// `leeway` before they expire, never at half their life.
public protocol TokenStore: Sendable {
  /// The current tokens, or `nil` when signed out.
  var tokens: AuthTokens? { get }
  /// Replaces the tokens (after a login or a refresh).
  func save(_ tokens: AuthTokens)
  /// Forgets the tokens (after a logout, or when the session ends).
  func clear()
}

/// A ``TokenStore`` that keeps tokens in memory only: they are gone when the process ends.
public final class InMemoryTokenStore: TokenStore {
  private let storage: Locked<AuthTokens?>

  /// Creates a store holding `tokens`.
  public init(_ tokens: AuthTokens? = nil) {
    storage = Locked(tokens)
  }

  /// The tokens last saved, or `nil` after ``clear()`` or when created without any.
  public var tokens: AuthTokens? { storage.withLock { $0 } }

  /// Replaces the tokens; every later read, from any thread, sees them.
  public func save(_ tokens: AuthTokens) {
    storage.withLock { $0 = tokens }
  }

  /// Forgets the tokens; every later read, from any thread, sees `nil`.
  public func clear() {
    storage.withLock { $0 = nil }
  }
}
