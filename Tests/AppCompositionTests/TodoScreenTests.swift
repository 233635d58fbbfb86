import AppComposition
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The todo screen's editor sheet, against a server", .timeLimit(.minutes(1)))
struct TodoScreenTests {
  @Test(
    "a todo saved in the sheet is created once at the server and joins the top of the list",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func saveCreatesOnce(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let screen = app.container.makeTodoScreenViewModel()
      screen.send(.addTapped)
      screen.send(.editor(.titleChanged("Buy oat milk")))
      await screen.sendAndWait(.editor(.saveTapped))

      let saved = try #require(screen.state.search.results.first)
      #expect(saved.title == "Buy oat milk")
      #expect(screen.state.editor == nil)
      #expect(try await connection.counters().paths["POST /todos"] == 1)
      #expect(try await Self.storedTitles(matching: "oat milk", on: connection) == ["Buy oat milk"])
      screen.cancel()
    }
  }

  @Test(
    "closing the sheet while its save waits at the server cancels the request there, and no todo is made",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func closingCancelsAtServer(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      try await connection.inject(.init(path: "/todos", method: "POST", count: 1, delay: 30))
      let screen = app.container.makeTodoScreenViewModel()
      screen.send(.addTapped)
      screen.send(.editor(.titleChanged("Held oat milk")))
      screen.send(.editor(.saveTapped))
      try await app.waitForRequest("POST /todos")

      await screen.sendAndWait(.editorDismissed)

      let counters = try await connection.counters(once: { $0.cancelled > 0 })
      #expect(counters.cancelled == 1, "the server saw the save go away")
      #expect(screen.state.editor == nil)
      #expect(screen.state.search.results.isEmpty)
      #expect(screen.state.banner == nil)
      #expect(try await Self.storedTitles(matching: "oat milk", on: connection).isEmpty)
      #expect(try await connection.counters().paths["POST /todos"] == 1)
      screen.cancel()
    }
  }

  /// The titles of the todos the server holds that contain `text`, asked for without the app's
  /// client: the server's own answer, not the screen's.
  private static func storedTitles(matching text: String, on connection: SampleBackendConnection)
    async throws -> [String]
  {
    struct Stored: Decodable { var title: String }
    try await connection.configure(requireAuth: false)
    let query = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    let answer = try await connection.raw("GET", "/todos?q=\(query)")
    #expect(answer.status == 200)
    return try JSONDecoder().decode([Stored].self, from: answer.body).map(\.title)
  }
}
