import DataLayer
import DomainLayer
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("RemoteSessionRepository")
struct RemoteSessionRepositoryTests {
  @Test("logging in stores the tokens and publishes signed in; a wrong password is invalid credentials")
  func logInAndOut() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      let sessions = StreamRecorder(stack.sessions.sessionUpdates())

      let refused = await Result.of { () async throws(DomainError) in
        try await stack.sessions.logIn(username: "demo", password: "wrong")
      }
      #expect(refused == .failure(.invalidCredentials))
      #expect(stack.tokenStore.tokens == nil)

      try await stack.signIn()
      #expect(stack.tokenStore.tokens != nil)
      await stack.sessions.logOut()
      #expect(stack.tokenStore.tokens == nil)
      #expect(await sessions.waitForCount(3) == [.signedOut, .signedIn, .signedOut])
    }
  }

  @Test("the network layer's session-ended signal expires the session and forgets the cached todos")
  func sessionEndedByServer() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      try await connection.configure(tokenLifetime: 0)
      try await stack.signIn()
      try await connection.configure(tokenLifetime: 3600)
      stack.cache.save([try Todo(id: 1, userID: 1, title: "cached", isCompleted: false)])
      // Spend the refresh token elsewhere, so the client's refresh is rejected.
      let refreshToken = try #require(stack.tokenStore.tokens?.refreshToken)
      _ = try await connection.raw(
        "POST", "/auth/refresh", body: .init(#"{"refreshToken":"\#(refreshToken)"}"#.utf8))
      let sessions = StreamRecorder(stack.sessions.sessionUpdates())

      let result = await Result.of { () async throws(DomainError) in try await stack.todos.todos() }

      #expect(result == .failure(.sessionExpired))
      #expect(await sessions.waitForCount(2) == [.signedIn, .expired])
      #expect(stack.cache.load() == nil)
      #expect(stack.tokenStore.tokens == nil)
    }
  }
}
