public import DomainLayer
public import Foundation
import LayeredSupport
public import NetworkLayer

/// A `SessionRepository` that signs in and out with its ``AuthContract`` and keeps the tokens in
/// a `TokenStore`.
///
/// The session it publishes follows three sources: its own logins and logouts, and the network
/// layer's session-ended signal (the server rejected the refresh token), which turns it into
/// `Session.expired`. It starts as `Session.signedIn` when the store already holds tokens, so a
/// relaunched app stays signed in.
public final class RemoteSessionRepository: SessionRepository {
  private let client: any HTTPClient
  private let contract: any AuthContract
  private let tokenStore: any TokenStore
  private let now: @Sendable () -> Date
  private let session: StateBroadcaster<Session>
  private let forgetUserData: @Sendable () -> Void
  private let renewal: @Sendable (AuthTokens) async -> AuthTokens?
  private let listener = Locked<Task<Void, Never>?>(nil)

  /// Creates the repository.
  ///
  /// - Parameters:
  ///   - client: sends the contract's login and logout requests; it has no auth interceptor.
  ///   - contract: the backend's login contract.
  ///   - tokenStore: the store the auth interceptor reads.
  ///   - sessionEvents: the auth interceptor's `sessionEvents`.
  ///   - forgetUserData: removes what belongs to the signed-in user (caches), called when the
  ///     session ends for any reason, so the next user never sees the previous one's data.
  ///   - renewal: what a refresh still on its way from the given tokens answers, or `nil` when
  ///     none is (the auth interceptor's `renewal(of:)`), for the logout to revoke.
  ///   - now: the time an answer arrived, from which an expiry in seconds is counted.
  public init(
    client: any HTTPClient,
    contract: any AuthContract = SampleAPIAuthContract(),
    tokenStore: any TokenStore,
    sessionEvents: AsyncStream<SessionEvent>,
    forgetUserData: @escaping @Sendable () -> Void = {},
    renewal: @escaping @Sendable (AuthTokens) async -> AuthTokens? = { _ in nil },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.client = client
    self.contract = contract
    self.tokenStore = tokenStore
    self.forgetUserData = forgetUserData
    self.renewal = renewal
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

  /// Signs in, stores the new tokens and publishes `Session.signedIn`. A session that was never
  /// signed out ends here: its user's data is forgotten, but the server is not told, since a
  /// logout sent now could end the new session (a cookie jar holds the new session's cookie);
  /// sign out first for that.
  ///
  /// - Parameters:
  ///   - username: the name to sign in with.
  ///   - password: sent only in the login request's body; never stored or put in an error.
  /// - Returns: the signed-in user.
  /// - Throws: `DomainError.invalidCredentials` when the server refuses the login (a status in
  ///   the contract's `refusedLoginStatuses`), or the `DomainError` for any other failure, tokens
  ///   that no request could carry (empty, padded with spaces, or with a line break) included;
  ///   the stored tokens and the session are then unchanged.
  public func logIn(username: String, password: String) async throws(DomainError) -> User {
    // The password is removed by value from anything reported, whatever the contract calls it.
    let client = PasswordListingClient(base: self.client, password: password)
    let steps = contract.logIn(username: username, password: password)
    let issued: IssuedTokens
    do {
      issued = try await client.issuedTokens(sending: steps.tokenRequest(through: client))
    } catch let error where error.status.map(contract.refusedLoginStatuses.contains) ?? false {
      throw .invalidCredentials(serverMessage: contract.refusedLoginMessage(error))
    } catch {
      throw error.domainError
    }
    // A session never signed out ends here: its user's data must not reach the next one's.
    if tokenStore.tokens != nil { forgetUserData() }
    tokenStore.save(issued.tokens(receivedAt: now()))
    session.update { $0 = .signedIn }
    return User(username: username)
  }

  /// Clears the tokens and the user's data, publishes `Session.signedOut`, then sends the
  /// contract's logout request with the tokens that were cleared, if it has one. Never fails:
  /// the user is signed out at once, whether or not the server can be told. The server must not
  /// keep a refresh token that would bring the session back: a refresh already on its way is
  /// waited for (within its own deadline) and its tokens are the ones sent, and a logout refused
  /// for its access token (expired while the app sat idle) is sent once more with renewed tokens.
  /// Each of these requests waits at most 10 s unless its endpoint says otherwise.
  public func logOut() async {
    let cleared = tokenStore.tokens
    tokenStore.clear()
    forgetUserData()
    session.update { $0 = .signedOut }
    guard let cleared else { return }
    let ended = await renewal(cleared) ?? cleared
    // Its failure is the server's to forget; the client's monitors still see it.
    do throws(NetworkError) {
      try await sendLogOut(with: ended)
    } catch let error where contract.rejectsAccessToken(error) {
      var refresher = RemoteTokenRefresher(client: client, contract: contract, now: now)
      refresher.deadline = Self.logOutDeadline
      guard let renewed = try? await refresher.refresh(ended) else { return }
      try? await sendLogOut(with: renewed)
    } catch {}
  }

  /// How long each request of a sign-out may keep the caller when the server does not answer.
  private static let logOutDeadline = Duration.seconds(10)

  private func sendLogOut(with tokens: AuthTokens) async throws(NetworkError) {
    guard var request = contract.logOut(tokens) else { return }
    request.deadline = request.deadline ?? Self.logOutDeadline
    request.credentials += [tokens.accessToken, tokens.refreshToken]
    _ = try await client.send(request)
  }

  /// A client that lists the password among the credentials of every request of a sign-in.
  private struct PasswordListingClient: HTTPClient {
    let base: any HTTPClient
    let password: String

    func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
      var endpoint = endpoint
      endpoint.credentials.append(password)
      return try await base.send(endpoint)
    }
  }

  /// The current session at once, then every change, for any number of listeners.
  ///
  /// - Returns: a stream that ends when the listener stops or the repository is released.
  public func sessionUpdates() -> AsyncStream<Session> {
    session.values()
  }
}
