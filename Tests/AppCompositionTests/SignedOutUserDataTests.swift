import AppComposition
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
}
