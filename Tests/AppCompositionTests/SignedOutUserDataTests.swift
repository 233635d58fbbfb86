import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

/// What belongs to a user is forgotten when they sign out, and an answer that arrives later for
/// them brings none of it back.
@MainActor
@Suite("A signed-out user's data", .timeLimit(.minutes(1)))
struct SignedOutUserDataTests {
  @Test(
    "a create answered after the sign-out leaves nothing of the signed-out user in the cache file",
    arguments: SampleBackendKind.allCases
  )
  func lateAnswerIsNotCached(kind: SampleBackendKind) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SignedOutUserDataTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let cacheFile = directory.appendingPathComponent("todos.json")
    try await kind.with { connection in
      let app = AppHarness(
        connection,
        configuration: AppConfiguration(
          baseURL: connection.baseURL, transport: connection.transport, storage: .directory(directory)))
      await app.signIn()
      let screen = app.container.makeTodoListViewModel()
      await screen.sendAndWait(.refresh)
      try await connection.inject(.init(path: "/todos", method: "POST", delay: 600))
      screen.send(.newTitleChanged("written just before signing out"))
      let create = Task { await screen.sendAndWait(.createTapped) }
      try await app.waitForRequest("POST /todos")

      await app.container.session.logOut()
      #expect(try await connection.releaseDelays() == 1)
      await create.value
      await app.container.flushStorage()

      let onDisk = (try? Data(contentsOf: cacheFile)).map { String(decoding: $0, as: UTF8.self) } ?? ""
      #expect(!onDisk.contains("written just before"), "the cache file holds the signed-out user's todo")
    }
  }

  @Test(
    "an app's own store of the user's data is forgotten at every end of a session, and a late answer brings none back",
    arguments: SampleBackendKind.allCases
  )
  func appStoreIsForgotten(kind: SampleBackendKind) async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("SignedOutUserDataTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("drafts.json")
    let drafts = FileStore<[String]>(fileURL: file)
    try await kind.with { connection in
      var configuration = AppConfiguration(baseURL: connection.baseURL, transport: connection.transport)
      configuration.forgetUserData = { drafts.clear() }
      let app = AppHarness(connection, configuration: configuration)

      await app.signIn()
      drafts.save(["a sign-out"])
      await app.container.session.logOut()
      #expect(drafts.value == nil)

      await app.signIn()
      drafts.save(["a sign-in over it"])
      let generation = drafts.generation
      await app.signIn()
      #expect(drafts.value == nil)
      drafts.update(unlessClearedSince: generation) { _ in ["answered for the first session"] }
      #expect(drafts.value == nil, "a late answer for the first session brought its data back")

      drafts.save(["the server ending it"])
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 401))
      _ = try await connection.revokeAccessTokens()
      let screen = app.container.makeTodoListViewModel()
      await screen.sendAndWait(.refresh)
      #expect(screen.state.hasSessionEnded)
      #expect(drafts.value == nil)
      await drafts.flush()
      #expect(!FileManager.default.fileExists(atPath: file.path(percentEncoded: false)))
    }
  }
}
