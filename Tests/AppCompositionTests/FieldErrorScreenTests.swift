import AppComposition
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import PresentationLayer
import SampleBackend
import Testing

@Suite("A refused form, as a screen shows it", .timeLimit(.minutes(1)))
struct FieldErrorScreenTests {
  /// Signs in as the sample API does, lists no todos, and refuses every create with `refusal`:
  /// by default as a common framework does, 400 with the complaint under the field's name.
  /// Counts the creates it got.
  private static func refusingBackend(
    creates: Locked<Int>,
    refusal: (status: Int, body: String) = (
      400, #"{"title":["Ensure this field has no more than 10 characters."]}"#
    )
  ) -> InProcessTransport {
    InProcessTransport(
      StubHandler { request in
        let json = ["Content-Type": "application/json"]
        switch (request.method, request.path) {
        case ("POST", "/auth/login"):
          let pair = #"{"accessToken":"a-1","refreshToken":"r-1","expiresIn":3600}"#
          return .respond(InProcessResponse(status: 200, headers: json, body: Data(pair.utf8)))
        case ("POST", "/todos"):
          creates.withLock { $0 += 1 }
          return .respond(
            InProcessResponse(status: refusal.status, headers: json, body: Data(refusal.body.utf8)))
        default:
          return .respond(InProcessResponse(status: 200, headers: json, body: Data("[]".utf8)))
        }
      })
  }

  /// Signs in on `transport`'s backend, types a title far too long and taps create, on a todo
  /// list whose container reads refusals with `format`.
  @MainActor
  private static func createTooLongTitle(
    on transport: InProcessTransport, format: RefusalFormat = .standard
  ) async throws -> TodoListViewModel {
    var configuration = AppConfiguration(baseURL: transport.baseURL, transport: transport)
    configuration.refusalFormat = format
    let container = AppContainer(configuration: configuration)
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    let screen = container.makeTodoListViewModel()
    screen.send(.newTitleChanged("A title far too long"))
    await screen.sendAndWait(.createTapped)
    return screen
  }

  @Test(
    "a create the server refuses shows its complaint about the title, keeps the typed title, and the next typing clears the complaint"
  )
  @MainActor
  func refusedCreateShowsTheFieldError() async throws {
    let creates = Locked(0)
    let screen = try await Self.createTooLongTitle(on: Self.refusingBackend(creates: creates))

    #expect(creates.withLock { $0 } == 1)
    #expect(screen.state.newTitle == "A title far too long")
    #expect(screen.state.titleErrors == ["Ensure this field has no more than 10 characters."])
    #expect(screen.state.message == "Some fields need attention.")
    #expect(!screen.state.isCreating)

    screen.send(.newTitleChanged("Short"))
    #expect(screen.state.titleErrors.isEmpty)
  }

  @Test(
    "a create refused with a sentence and no field shows the sentence, keeps the typed title, and can be tapped again"
  )
  @MainActor
  func refusalWithOnlyASentence() async throws {
    let creates = Locked(0)
    let conflict = (409, #"{"statusCode":409,"message":"A todo with this title already exists."}"#)
    let screen = try await Self.createTooLongTitle(
      on: Self.refusingBackend(creates: creates, refusal: conflict))

    #expect(screen.state.message == "A todo with this title already exists.")
    #expect(screen.state.titleErrors.isEmpty)
    #expect(screen.state.newTitle == "A title far too long")
    await screen.sendAndWait(.createTapped)
    #expect(creates.withLock { $0 } == 2, "the refusal ended nothing: the second tap was sent")
  }

  /// GitHub's shape: a sentence, and per field a code rather than a message.
  private static let githubStyleRefusal =
    (
      422,
      #"{"message":"Validation Failed","errors":[{"resource":"Todo","field":"title","code":"too_long"}]}"#
    )

  /// The app's reader of that shape, as an app writes one for its backend.
  private static let githubStyleFormat = RefusalFormat.json(GitHubStyleRefusal.self) { refusal in
    let words = ["missing_field": "is required", "too_long": "is too long"]
    return (
      refusal.message,
      Dictionary(grouping: refusal.errors, by: \.field).mapValues { $0.map { words[$0.code] ?? $0.code } }
    )
  }

  private struct GitHubStyleRefusal: Decodable {
    struct FieldError: Decodable {
      var field: String
      var code: String
    }
    var message: String
    var errors: [FieldError]
  }

  @Test(
    "a backend's own refusal shape reaches the form's field through the configuration's refusal format; without it only the server's sentence shows"
  )
  @MainActor
  func ownRefusalFormatReachesTheForm() async throws {
    for format in [Self.githubStyleFormat, nil] {
      let creates = Locked(0)
      let screen = try await Self.createTooLongTitle(
        on: Self.refusingBackend(creates: creates, refusal: Self.githubStyleRefusal),
        format: format ?? .standard)

      #expect(creates.withLock { $0 } == 1)
      #expect(screen.state.newTitle == "A title far too long")
      if format == nil {
        #expect(screen.state.titleErrors.isEmpty)
        #expect(screen.state.message == "Validation Failed", "the server's sentence, with no field read")
      } else {
        #expect(screen.state.titleErrors == ["is too long"])
        #expect(screen.state.message == "Validation Failed", "the server's sentence, as it wrote it")
      }
    }
  }
}
