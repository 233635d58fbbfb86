import AppComposition
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import PresentationLayer
import SampleBackend
import Testing

@Suite("A refused form, as a screen shows it", .timeLimit(.minutes(1)))
struct FieldErrorScreenTests {
  /// Signs in as the sample API does, lists no todos, and refuses every create the way a common
  /// framework does: 400 with the complaint under the field's name. Counts the creates it got.
  private static func refusingBackend(creates: Locked<Int>) -> InProcessTransport {
    InProcessTransport(
      StubHandler { request in
        let json = ["Content-Type": "application/json"]
        switch (request.method, request.path) {
        case ("POST", "/auth/login"):
          let pair = #"{"accessToken":"a-1","refreshToken":"r-1","expiresIn":3600}"#
          return .respond(InProcessResponse(status: 200, headers: json, body: Data(pair.utf8)))
        case ("POST", "/todos"):
          creates.withLock { $0 += 1 }
          let refusal = #"{"title":["Ensure this field has no more than 10 characters."]}"#
          return .respond(InProcessResponse(status: 400, headers: json, body: Data(refusal.utf8)))
        default:
          return .respond(InProcessResponse(status: 200, headers: json, body: Data("[]".utf8)))
        }
      })
  }

  @Test(
    "a create the server refuses shows its complaint about the title, keeps the typed title, and the next typing clears the complaint"
  )
  @MainActor
  func refusedCreateShowsTheFieldError() async throws {
    let creates = Locked(0)
    let transport = Self.refusingBackend(creates: creates)
    let container = AppContainer(
      configuration: AppConfiguration(baseURL: transport.baseURL, transport: transport))
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    let screen = container.makeTodoListViewModel()

    screen.send(.newTitleChanged("A title far too long"))
    await screen.sendAndWait(.createTapped)

    #expect(creates.withLock { $0 } == 1)
    #expect(screen.state.newTitle == "A title far too long")
    #expect(screen.state.titleErrors == ["Ensure this field has no more than 10 characters."])
    #expect(screen.state.message == "Some fields need attention.")
    #expect(!screen.state.isCreating)

    screen.send(.newTitleChanged("Short"))
    #expect(screen.state.titleErrors.isEmpty)
  }
}
