public import DomainLayer
public import Foundation
import LayeredSupport
public import NetworkLayer

/// A `SessionRepository` that signs in over HTTP and keeps the tokens in a `TokenStore`.
///
/// The session it publishes follows three sources: its own logins and logouts, and the network
/// layer's session-ended signal (the server rejected the refresh token), which turns it into
/// `Session.expired`. It starts as `Session.signedIn` when the store already holds tokens, so a
/// relaunched app stays signed in.
public final class RemoteSessionRepository: SessionRepository {
  private let client: any HTTPClient
  private let tokenStore: any TokenStore
  private let now: @Sendable () -> Date
  private let session: StateBroadcaster<Session>
  private let forgetUserData: @Sendable () -> Void
  private let listener = Locked<Task<Void, Never>?>(nil)

  /// Creates the repository.
  ///
  /// - Parameters:
  ///   - client: sends the login request; it needs no auth interceptor.
  ///   - tokenStore: the store the auth interceptor reads.
  ///   - sessionEvents: the auth interceptor's `sessionEvents`.
  ///   - forgetUserData: removes what belongs to the signed-in user (caches), called when the
  ///     session ends for any reason, so the next user never sees the previous one's data.
  ///   - now: turns `expiresIn` into a date.
  public init(
    client: any HTTPClient,
    tokenStore: any TokenStore,
    sessionEvents: AsyncStream<SessionEvent>,
    forgetUserData: @escaping @Sendable () -> Void = {},
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.client = client
    self.tokenStore = tokenStore
    self.forgetUserData = forgetUserData
    self.now = now
    self.session = StateBroadcaster(tokenStore.tokens == nil ? .signedOut : .signedIn)
    let task = Task { [weak self] in
      for await event in sessionEvents {
        guard case .ended = event, let self else { continue }
        self.forgetUserData()
        self.session.update { $0 = .expired }
      }
    }
    listener.withLock { $0 = task }
  }

  deinit {
    listener.withLock { $0?.cancel() }
    session.finish()
  }

  /// Signs in, stores the new tokens and publishes `Session.signedIn`.
  ///
  /// - Parameters:
  ///   - username: the name to sign in with.
  ///   - password: sent only in the login request's body; never stored or put in an error.
  /// - Returns: the signed-in user.
  /// - Throws: `DomainError.invalidCredentials` when the server refuses the login (401), or the
  ///   `DomainError` for any other failure; the stored tokens and the session are then unchanged.
  public func logIn(username: String, password: String) async throws(DomainError) -> User {
    let pair: TokenPairDTO
    do {
      pair = try await client.send(AuthEndpoints.login(username: username, password: password))
    } catch .badStatus(401, _) {
      throw .invalidCredentials
    } catch {
      throw error.domainError
    }
    tokenStore.save(pair.tokens(receivedAt: now()))
    session.update { $0 = .signedIn }
    return User(username: username)
  }

  /// Clears the tokens and the user's data, then publishes `Session.signedOut`. Never fails and
  /// sends nothing: signing out is local.
  public func logOut() async {
    tokenStore.clear()
    forgetUserData()
    session.update { $0 = .signedOut }
  }

  /// The current session at once, then every change, for any number of listeners.
  ///
  /// - Returns: a stream that ends when the listener stops or the repository is released.
  public func sessionUpdates() -> AsyncStream<Session> {
    session.values()
  }
}
