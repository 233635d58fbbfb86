import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a package built on Layered gets from the composition root: a feature's repository built
/// outside the package runs on the container's session, with no second token store.
@Suite("Composition root seams", .timeLimit(.minutes(1)))
struct ContainerSeamTests {
  @Test(
    "a repository built outside on the container's authenticated client is signed with the container's login, as the server checks"
  )
  func outsideRepositorySharesTheLogin() async throws {
    let api = SampleAPI()
    let routes = CommentsRoutes()
    try routes.register(on: api)
    let mount = api.transport()
    let server = SampleBackendConnection(mount)
    let container = AppContainer(
      configuration: AppConfiguration(baseURL: mount.baseURL, transport: mount))
    let comments = RemoteCommentRepository(client: container.authenticatedClient)

    await #expect(throws: DomainError.sessionExpired) { try await comments.comments(todoID: 7) }
    #expect(routes.authorizations.withLock { $0 }.isEmpty)

    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    let added = try await comments.add("Buy the oat kind", todoID: 7)
    let listed = try await comments.comments(todoID: 7)
    #expect(listed == [added])

    // The handlers ran only after the bearer check accepted the token, and the server has issued
    // exactly one token: the container's login's.
    let seen = routes.authorizations.withLock { $0 }
    #expect(seen.count == 2)
    #expect(Set(seen).count == 1)
    #expect(seen.first??.hasPrefix("Bearer at-") == true)
    let counters = try await server.counters()
    #expect(counters.logins == 1)
    #expect(counters.refreshes == 0)
    #expect(counters.paths["POST /todos/7/comments"] == 1)

    // Signing out through the container signs the outside feature out too.
    await container.session.logOut()
    await #expect(throws: DomainError.sessionExpired) { try await comments.comments(todoID: 7) }
    #expect(routes.authorizations.withLock { $0 }.count == 2)
  }

  @Test(
    "a container configured with its base URL alone signs in and loads over the system's default session, as the server counts",
    .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
  )
  func baseURLAloneReachesTheServer() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let container = AppContainer(configuration: AppConfiguration(baseURL: server.baseURL))

      _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
      let todos = try await RemoteTodoRepository(client: container.authenticatedClient).todos()

      #expect(todos.count == 200)
      let counters = try await connection.counters()
      #expect(counters.logins == 1)
      #expect(counters.paths["GET /todos"] == 1)
    }
  }

  @Test(
    "a client for another host of the backend carries the session's token there, and its 401s join the one refresh, as the server sees",
    .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
  )
  func anotherHostSharesTheSession() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let container = AppContainer(
        configuration: AppConfiguration(baseURL: server.baseURL, session: .loopbackTesting()))
      // The same server under another name: another origin, as an uploads host is.
      var otherHost = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
      otherHost.host = "localhost"
      let uploads = RemoteTodoRepository(
        client: container.authenticatedClient(for: try #require(otherHost.url)))
      let api = RemoteTodoRepository(client: container.authenticatedClient)

      await #expect(throws: DomainError.sessionExpired) { try await uploads.todos() }
      _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
      #expect(try await uploads.todos().count == 200)
      #expect(try await api.todos().count == 200)
      let signed = try await connection.received().filter { $0.line.hasPrefix("GET /todos ") }
      #expect(signed.map { $0.header("Host")?.hasPrefix("localhost:") } == [true, false])
      #expect(Set(signed.map { $0.header("Authorization") }).count == 1, "one session's token on both hosts")
      #expect(signed.first?.header("Authorization")?.hasPrefix("Bearer at-") == true)

      // Both hosts' 401s wait for one refresh, and each request is sent again with its answer.
      _ = try await connection.revokeAccessTokens()
      let loads = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<10 {
          group.addTask { try await (index.isMultiple(of: 2) ? uploads : api).todos().count }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(loads == Array(repeating: 200, count: 10))
      let counters = try await connection.counters()
      #expect(counters.refreshes == 1)
      #expect(counters.logins == 1)

      // Signing out signs the other host out too, before anything is sent there.
      await container.session.logOut()
      let sent = try await connection.counters().paths["GET /todos"]
      await #expect(throws: DomainError.sessionExpired) { try await uploads.todos() }
      #expect(try await connection.counters().paths["GET /todos"] == sent)
    }
  }

  @Test("a feature's files go next to the container's, never over them and never outside the directory")
  func storageFilesStayInTheDirectory() {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ContainerSeamTests")
    let session = URLSession(configuration: .ephemeral)
    let baseURL = directory
    let onDisk = AppContainer(
      configuration: AppConfiguration(baseURL: baseURL, session: session, storage: .directory(directory)))
    #expect(onDisk.storageFile(named: "comments.json") == directory.appendingPathComponent("comments.json"))
    for name in ["", ".", "..", "../comments.json", "a/b", "tokens.json", "todos.json"] {
      #expect(onDisk.storageFile(named: name) == nil, "\(name)")
    }
    let inMemory = AppContainer(configuration: AppConfiguration(baseURL: baseURL, session: session))
    #expect(inMemory.storageFile(named: "comments.json") == nil)
    #expect(inMemory.configuration.storage.isInMemory)
  }

  @Test("a store built on a feature's file writes that file, on disk, in the container's directory")
  func storageFileIsWhereAStoreWrites() async throws {
    let manager = FileManager.default
    let directory = try Self.newDirectory()
    defer { try? manager.removeItem(at: directory) }
    let container = AppContainer(
      configuration: AppConfiguration(
        baseURL: directory, session: URLSession(configuration: .ephemeral), storage: .directory(directory)))
    let file = try #require(container.storageFile(named: "comments.json"))

    let store = FileTodoCache(fileURL: file)
    store.save([try Todo(id: 1, userID: 1, title: "kept on disk", isCompleted: false)])
    await store.flush()

    // Found by listing the directory the container was configured with, not through the URL.
    let listed = try manager.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
    #expect(listed.contains("comments.json"))
    let bytes = try #require(
      manager.contents(atPath: directory.path(percentEncoded: false) + "/comments.json"))
    #expect(String(decoding: bytes, as: UTF8.self).contains("kept on disk"))
  }

  @Test(
    "an app's own token store holds the session: the login saves there, a relaunch on it is signed in, and no token file is written"
  )
  func appTokenStoreHoldsTheSession() async throws {
    let manager = FileManager.default
    let directory = try Self.newDirectory()
    defer { try? manager.removeItem(at: directory) }
    let api = SampleAPI()
    let routes = CommentsRoutes()
    try routes.register(on: api)
    let mount = api.transport()
    let server = SampleBackendConnection(mount)
    // Stands in for a store on the keychain, which outlives the container.
    let keychain = InMemoryTokenStore()
    var configuration = AppConfiguration(
      baseURL: mount.baseURL, transport: mount, storage: .directory(directory))
    configuration.tokenStore = keychain

    let first = AppContainer(configuration: configuration)
    _ = try await first.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    let saved = try #require(keychain.tokens)
    await first.flushStorage()
    let listed = try manager.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
    #expect(!listed.contains("tokens.json"))

    let relaunched = AppContainer(configuration: configuration)
    _ = try await RemoteCommentRepository(client: relaunched.authenticatedClient).comments(todoID: 7)
    #expect(routes.authorizations.withLock { $0 } == ["Bearer \(saved.accessToken)"])
    #expect(try await server.counters().logins == 1)

    await relaunched.session.logOut()
    #expect(keychain.tokens == nil)
  }

  /// A new, empty directory of this test's own.
  private static func newDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ContainerSeamTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }
}

extension AppConfiguration.Storage {
  fileprivate var isInMemory: Bool {
    if case .inMemory = self { true } else { false }
  }
}
