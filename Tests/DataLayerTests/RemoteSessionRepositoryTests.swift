import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
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

  @Test(
    "a sign-in over a session that was never signed out forgets the first session's data; a first sign-in keeps what is cached"
  )
  func signInOverASessionForgetsItsData() async throws {
    try await SampleBackendKind.embedded.with { connection in
      let stack = DataStack(connection)
      let todo = try Todo(id: 1, userID: 1, title: "cached", isCompleted: false)
      stack.cache.save([todo])
      try await stack.signIn()
      #expect(stack.cache.load() == [todo], "nobody was signed in: nothing of anyone's to forget")

      try await stack.signIn()
      #expect(stack.cache.load() == nil)
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

  /// Tokens, as the sample API's answer writes them, that no request header could carry.
  struct UnsendableTokens: CustomTestStringConvertible, Sendable {
    var name: String
    var access: String
    var refresh: String
    var testDescription: String { name }
  }

  @Test(
    "a login or refresh answer with tokens no request could carry is refused: nothing is saved and the session stays",
    arguments: [
      UnsendableTokens(
        name: "a line break in the access token", access: #"at-1\r\nX-Injected: yes"#, refresh: "rt-1"),
      UnsendableTokens(name: "an empty access token", access: "", refresh: "rt-1"),
      UnsendableTokens(name: "an access token of spaces only", access: "   ", refresh: "rt-1"),
      UnsendableTokens(name: "an access token ending in a space", access: "at-1 ", refresh: "rt-1"),
      UnsendableTokens(
        name: "a line feed in the refresh token", access: "at-1", refresh: #"rt-1\nX-Injected: yes"#),
    ]
  )
  func unsendableTokensAreRefused(tokens: UnsendableTokens) async throws {
    let paths = Locked<[String]>([])
    let body = #"{"accessToken":"\#(tokens.access)","refreshToken":"\#(tokens.refresh)","expiresIn":3600}"#
    let server = InProcessTransport(
      StubHandler { request in
        paths.withLock { $0.append(request.path) }
        return .respond(
          InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        )
      })
    let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: server)
    let store = InMemoryTokenStore()
    let sessions = RemoteSessionRepository(
      client: client, tokenStore: store, sessionEvents: AsyncStream { $0.finish() })
    let updates = StreamRecorder(sessions.sessionUpdates())

    let login = await Result.of { () async throws(DomainError) in
      try await sessions.logIn(username: "demo", password: "correct-horse-battery-staple")
    }
    #expect(
      login
        == .failure(.invalidData(reason: "decoding failed: the answer's tokens cannot be sent in a header")))
    #expect(store.tokens == nil)
    #expect(await updates.waitForCount(1) == [.signedOut])

    let held = AuthTokens(accessToken: "at-0", refreshToken: "rt-0", expiresAt: nil, issuedAt: nil)
    do {
      _ = try await RemoteTokenRefresher(client: client).refresh(held)
      Issue.record("the refresh kept tokens no request could carry")
    } catch {
      #expect(error == .decodingFailed(path: "", reason: "the answer's tokens cannot be sent in a header"))
    }
    #expect(paths.withLock { $0 } == ["/auth/login", "/auth/refresh"])
  }

  /// A backend that gives its tokens' expiry as a moment (`expires_at`, seconds since 1970) and
  /// dates its answers by its own clock, when `datesAnswers`.
  private struct AbsoluteExpiryContract: AuthContract {
    struct Pair: Decodable, Sendable {
      var access: String
      var refresh: String
      var expiresAt: Double

      enum CodingKeys: String, CodingKey {
        case access, refresh
        case expiresAt = "expires_at"
      }
    }

    func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
      Endpoint<Pair>(
        method: .post, path: ["login"], body: .json(["username": username, "password": password])
      )
      .map(Self.issued)
    }

    func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
      Endpoint<Pair>(method: .post, path: ["refresh"], body: .json(["refresh": tokens.refreshToken])).map(
        Self.issued)
    }

    @Sendable static func issued(_ pair: Pair) -> IssuedTokens {
      IssuedTokens(
        accessToken: pair.access, refreshToken: pair.refresh,
        expiry: .at(Date(timeIntervalSince1970: pair.expiresAt)))
    }
  }

  /// The three forms of an HTTP date (RFC 9110, section 5.6.7): servers send the first, and a
  /// recipient must read all three.
  enum DateForm: String, CaseIterable, Sendable {
    case imfFixdate = "IMF-fixdate"
    case rfc850 = "RFC 850"
    case asctime

    func text(for date: Date) -> String {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      switch self {
      case .imfFixdate:
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
      case .rfc850:
        formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
      case .asctime:
        // asctime pads a one-digit day with a space: `Sun Nov  6 08:49:37 1994`.
        formatter.dateFormat = "d"
        let day = formatter.string(from: date)
        formatter.dateFormat = "EEE MMM '\(day.count == 1 ? " " + day : day)' HH:mm:ss yyyy"
      }
      return formatter.string(from: date)
    }
  }

  /// A `Date` header that names no moment: none at all, or one that is not a date.
  enum NoDate: String, CaseIterable, Sendable {
    case absent = "no Date header"
    /// An accent after "GMT": Foundation's date parser on Linux traps on it if it is let through.
    case accented = "a Date with an accent after GMT"

    func text(for date: Date) -> String? {
      self == .absent ? nil : DateForm.imfFixdate.text(for: date) + "\u{301}"
    }
  }

  /// Issues tokens valid for an hour by the real clock, dates its answers in `dateForm`, and
  /// counts the requests to each path.
  private static func absoluteExpiryServer(
    dateForm: DateForm, paths: Locked<[String]>
  ) -> InProcessTransport {
    absoluteExpiryServer(date: { dateForm.text(for: $0) }, paths: paths)
  }

  /// Issues tokens valid for an hour by the real clock, with `date` of the moment as its `Date`
  /// header unless it gives `nil`, and counts the requests to each path.
  private static func absoluteExpiryServer(
    date: @escaping @Sendable (Date) -> String?, paths: Locked<[String]>
  ) -> InProcessTransport {
    InProcessTransport(
      StubHandler { request in
        paths.withLock { $0.append(request.path) }
        let now = Date()
        let body =
          #"{"access":"at-\#(UUID())","refresh":"rt-1","expires_at":\#(now.timeIntervalSince1970 + 3600)}"#
        var headers = ["Content-Type": "application/json"]
        headers["Date"] = date(now)
        return .respond(
          InProcessResponse(
            status: 200, headers: headers, body: Data((request.path == "/todos" ? "[]" : body).utf8)))
      })
  }

  @Test(
    "an absolute expiry is read by the server's clock, in any form of its Date: a device clock hours ahead renews nothing",
    arguments: DateForm.allCases)
  func absoluteExpiryByTheServersClock(dateForm: DateForm) async throws {
    let paths = Locked<[String]>([])
    let server = Self.absoluteExpiryServer(dateForm: dateForm, paths: paths)
    // The device's clock is two hours ahead of the server's.
    let deviceNow: @Sendable () -> Date = { Date().addingTimeInterval(2 * 3600) }
    let contract = AbsoluteExpiryContract()
    let plain = URLSessionHTTPClient(baseURL: server.baseURL, transport: server)
    let store = InMemoryTokenStore()
    let interceptor = AuthInterceptor(
      store: store, refresher: RemoteTokenRefresher(client: plain, contract: contract, now: deviceNow),
      now: deviceNow)
    let sessions = RemoteSessionRepository(
      client: plain, contract: contract, tokenStore: store, sessionEvents: interceptor.sessionEvents,
      now: deviceNow)
    let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: server, interceptors: [interceptor])

    let before = deviceNow()
    _ = try await sessions.logIn(username: "demo", password: "correct-horse-battery-staple")
    let after = deviceNow()
    let expiresAt = try #require(store.tokens?.expiresAt)
    for _ in 0..<5 {
      _ = try await client.send(Endpoint<[Int]>(path: ["todos"], requiresAuthentication: true))
    }

    #expect(paths.withLock { $0 } == ["/login"] + Array(repeating: "/todos", count: 5), "no renewal was sent")
    // An hour (and the part of a second the `Date` header leaves out) from the answer's arrival,
    // by the device's clock.
    #expect(
      expiresAt >= before.addingTimeInterval(3600) && expiresAt <= after.addingTimeInterval(3601),
      "an hour left on the device's clock: \(expiresAt), logged in between \(before) and \(after)")
  }

  @Test(
    "an absolute expiry in an answer without a Date header, or with one that is no date, is kept as the moment it names",
    arguments: NoDate.allCases)
  func absoluteExpiryWithoutADate(noDate: NoDate) async throws {
    let paths = Locked<[String]>([])
    let server = Self.absoluteExpiryServer(date: { noDate.text(for: $0) }, paths: paths)
    let store = InMemoryTokenStore()
    let sessions = RemoteSessionRepository(
      client: URLSessionHTTPClient(baseURL: server.baseURL, transport: server),
      contract: AbsoluteExpiryContract(),
      tokenStore: store, sessionEvents: AsyncStream { $0.finish() },
      now: { Date().addingTimeInterval(2 * 3600) })

    let before = Date()
    _ = try await sessions.logIn(username: "demo", password: "correct-horse-battery-staple")

    let expiresAt = try #require(store.tokens?.expiresAt)
    #expect(expiresAt >= before.addingTimeInterval(3600) && expiresAt <= Date().addingTimeInterval(3600))
  }
}
