public import NetworkLayer

/// How a backend signs a user in, renews the session and ends it: the requests it takes, how its
/// answers become tokens, and how a request presents the access token.
///
/// ``RemoteSessionRepository`` and ``RemoteTokenRefresher`` send what the contract says and know
/// no path, field name or token shape. ``SampleAPIAuthContract`` is the sample API's; an app
/// writes one for its own backend and hands it to the composition root. The endpoints are sent
/// through a client without the auth interceptor, since each carries its own credential, and
/// whatever they carry as credentials (see `AuthTokens`) never reaches a log or an error. They go
/// to the API's base URL unless they name their own (`EndpointRequest.baseURL`): an auth server
/// on a host of its own.
public protocol AuthContract: Sendable {
  /// How the sign-in is sent: one `Endpoint<IssuedTokens>` unless the backend's sign-in takes
  /// several requests, a type of the app's own then.
  associatedtype Steps: LoginSteps = Endpoint<IssuedTokens>

  /// The sign-in that exchanges a username and a password for a new session's tokens: the
  /// request that does, or the steps that lead to it. A refused login must answer with a status
  /// in ``refusedLoginStatuses``.
  func logIn(username: String, password: String) -> Steps

  /// The request that renews `tokens`. An answer with a status in ``rejectedRefreshStatuses``
  /// ends the session; any other failure keeps it. Asked only for a session that holds a refresh
  /// token: with a backend that issues none (DRF's `TokenAuthentication`, Laravel Sanctum's API
  /// tokens) the session ends at the first rejected request, and this is never sent. A backend
  /// that renews with the access token itself (Laravel's jwt-auth, PocketBase) issues it as the
  /// refresh token too.
  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens>

  /// The request that tells the server a session has ended (it revokes the refresh token, say),
  /// or `nil` when the backend has none. Signing out never waits on its success; one refused as
  /// ``rejectsAccessToken(_:)`` says is asked for again with renewed tokens, and sent once more.
  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>?

  /// The statuses that mean "wrong username or password"; 401 unless the backend says otherwise.
  var refusedLoginStatuses: Set<Int> { get }

  /// Whether `failure` of an authenticated request refuses the access token itself, which is then
  /// renewed once and the request sent again: a 401 unless the backend says otherwise
  /// (flask-jwt-extended answers a token it cannot verify with a 422 and a `msg` that says so).
  func rejectsAccessToken(_ failure: NetworkError) -> Bool

  /// The statuses with which the refresh request says the refresh token is no good, which ends
  /// the session: 400, 401 and 403 unless the backend says otherwise (a 498 "invalid token";
  /// or only 401, where a firewall answers 403 to a request it merely blocked).
  var rejectedRefreshStatuses: Set<Int> { get }

  /// The server's sentence for a person in a refused login, which the screen may show instead of
  /// its own; `nil`, the default, when the backend's words are not meant for users.
  func refusedLoginMessage(_ refusal: NetworkError) -> String?

  /// The header an authenticated request carries the access token in: `Authorization` unless
  /// the backend says otherwise (`X-Auth-Token`).
  var tokenHeader: String { get }

  /// The scheme written before the access token in ``tokenHeader``: `Bearer` unless the backend
  /// says otherwise (`Token`, `JWT`), or `nil` for a bare token.
  var tokenScheme: String? { get }

  /// The query item an authenticated request carries the access token in instead of a header
  /// (`auth`, as Firebase's Realtime Database takes an ID token); `nil`, the default, for
  /// ``tokenHeader``. A URL reaches the access log of every server and proxy on its way.
  var tokenQueryItem: String? { get }
}

extension AuthContract {
  /// No request: the backend keeps no session to end.
  public func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? { nil }

  /// 401.
  public var refusedLoginStatuses: Set<Int> { [401] }

  /// A 401.
  public func rejectsAccessToken(_ failure: NetworkError) -> Bool { failure.status == 401 }

  /// `AuthInterceptor.defaultRejectedRefreshStatuses`: 400, 401 and 403.
  public var rejectedRefreshStatuses: Set<Int> { AuthInterceptor.defaultRejectedRefreshStatuses }

  /// None: the server's words stay the server's.
  public func refusedLoginMessage(_ refusal: NetworkError) -> String? { nil }

  /// `Authorization`.
  public var tokenHeader: String { "Authorization" }

  /// `Bearer`.
  public var tokenScheme: String? { "Bearer" }

  /// None: the token goes in ``tokenHeader``.
  public var tokenQueryItem: String? { nil }
}
