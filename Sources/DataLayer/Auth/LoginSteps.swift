public import NetworkLayer

/// The requests of a sign-in, the last of which answers the new session's tokens.
///
/// Most backends take a username and a password in one request, which answers the tokens: that
/// request is an `Endpoint<IssuedTokens>`, the steps of an ``AuthContract`` unless it says
/// otherwise. A backend whose sign-in takes more (a login flow in steps that answers a one-time
/// code, a CSRF cookie fetched first) has a type of the app's own, which sends the requests
/// before the last and returns that one. ``RemoteSessionRepository`` reads every token answer the
/// same way, and lists the password among the credentials of each request sent, so it reaches no
/// log or error under any field name.
public protocol LoginSteps: Sendable {
  /// Sends every request before the one that answers the tokens through `client` (it has no
  /// auth interceptor), and returns that one. A refusal of the username or password throws a
  /// status in the contract's ``AuthContract/refusedLoginStatuses``, also where the server
  /// answered it with a 200 that names the refusal in its body.
  func tokenRequest(through client: any HTTPClient) async throws(NetworkError) -> Endpoint<IssuedTokens>
}

extension Endpoint: LoginSteps where Response == IssuedTokens {
  /// The endpoint itself, the one request of the sign-in.
  public func tokenRequest(through client: any HTTPClient) async throws(NetworkError) -> Self {
    self
  }
}
