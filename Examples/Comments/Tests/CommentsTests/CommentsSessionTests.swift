import AppComposition
import Comments
import LayeredTestSupport
import SampleBackend
import Testing

@Suite("Comments on the app's session", .timeLimit(.minutes(1)))
@MainActor
struct CommentsSessionTests {
  @Test(
    "after a login through the container's login screen, the comments screen loads and adds on that session, with no second login"
  )
  func sameSession() async throws {
    let api = SampleAPI()
    try CommentsSampleRoutes.register(on: api)
    let transport = api.transport()
    let server = SampleBackendConnection(transport)
    let container = AppContainer(
      configuration: AppConfiguration(baseURL: transport.baseURL, transport: transport))

    let comments = container.makeCommentsViewModel(todoID: 7)
    await comments.sendAndWait(.appeared)
    // Signed out: the load fails in the client, which has no token to send, and nothing is shown.
    #expect(comments.state.message != nil)
    #expect(comments.state.comments.isEmpty)
    #expect(try await server.counters().requests == 0, "the signed-out load never reached the server")

    let login = container.makeLoginViewModel()
    login.send(.usernameChanged("demo"))
    login.send(.passwordChanged("correct-horse-battery-staple"))
    await login.sendAndWait(.logInTapped)

    comments.send(.draftChanged("Buy the oat kind"))
    await comments.sendAndWait(.addTapped)
    await comments.sendAndWait(.appeared)
    #expect(comments.state.message == nil)
    #expect(comments.state.comments.map(\.body) == ["Buy the oat kind"])

    let counters = try await server.counters()
    #expect(counters.logins == 1)
    #expect(counters.refreshes == 0)
    #expect(counters.paths["POST /todos/7/comments"] == 1)
    // Only the signed-in load: the signed-out one never left the client.
    #expect(counters.paths["GET /todos/7/comments"] == 1)
  }
}
