import AppComposition
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("The app's flow between its screens", .timeLimit(.minutes(1)))
struct AppFlowTests {
  /// Waits until the flow's state satisfies `condition`, following its states.
  @MainActor
  private static func waitUntil(_ flow: AppFlowViewModel, _ condition: (AppFlowFeature.State) -> Bool) async {
    for await state in flow.states where condition(state) { return }
    Issue.record("the flow ended before its state satisfied the condition")
  }

  @Test(
    "signed out the app shows sign-in, then the todo list once signed in, and sign-in again when the session ends",
    arguments: SampleBackendKind.allCases)
  @MainActor
  func signInThenSessionEnds(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      let flow = app.container.makeAppFlowViewModel()
      flow.send(.started)
      await Self.waitUntil(flow) { $0.login != nil }
      #expect(flow.state.todos == nil)

      // Tokens issued now are already expired, and the server will refuse to renew them.
      try await connection.configure(tokenLifetime: 0)
      try await connection.inject(.init(path: "/auth/refresh", count: -1, status: 401))
      flow.send(.login(.usernameChanged("demo")))
      flow.send(.login(.passwordChanged("correct-horse-battery-staple")))
      await flow.sendAndWait(.login(.logInTapped))
      #expect(flow.state.login == nil)
      #expect(flow.state.todos != nil)

      // The list's first load needs a refresh, which the server refuses: the session ends.
      flow.send(.todos(.appeared))
      await Self.waitUntil(flow) { $0.login != nil }
      #expect(flow.state.todos == nil)
      let counters = try await connection.counters()
      #expect(counters.logins == 1)
      #expect(counters.refreshes == 1)

      // Learning of the end again, as the other screen or the session watch may, changes nothing:
      // what the user has typed since stays.
      flow.send(.login(.usernameChanged("demo")))
      await flow.sendAndWait(.sessionChanged(.expired))
      await flow.sendAndWait(.sessionEnded)
      #expect(flow.state.login?.username == "demo")
    }
  }

  @Test("a user already signed in starts on the todo list", arguments: SampleBackendKind.allCases)
  @MainActor
  func signedInStartsOnList(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let app = AppHarness(connection)
      await app.signIn()
      let flow = app.container.makeAppFlowViewModel()
      flow.send(.started)
      await Self.waitUntil(flow) { $0.todos != nil }
      await flow.sendAndWait(.todos(.appeared))
      #expect(flow.state.todos?.todos.count == 200)
      #expect(flow.state.login == nil)
    }
  }
}
