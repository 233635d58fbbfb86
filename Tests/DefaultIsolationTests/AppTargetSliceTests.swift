import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import PresentationLayer
import SampleBackend
import Testing

// An app's own slice through every layer, written in this main-actor target as an app target
// would write it. Only the value its state holds and the DTO say `nonisolated`: their conformances
// are used off the main actor (Architecture.md, "Building on Layered from another package").

nonisolated struct Note: Equatable, Sendable {
  var id: Int
  var text: String
}

nonisolated struct NoteDTO: Decodable, Sendable, DomainConvertible {
  var id: Int
  var title: String

  func toDomain() throws(DomainError) -> Note {
    Note(id: id, text: title)
  }
}

protocol NoteRepository: Sendable {
  func notes() async throws(DomainError) -> [Note]
}

struct RemoteNoteRepository: NoteRepository {
  let client: any HTTPClient

  func notes() async throws(DomainError) -> [Note] {
    try await client.sendTranslatingErrors(Endpoint<[NoteDTO]>(path: ["notes"])).map {
      (dto: NoteDTO) throws(DomainError) in try dto.toDomain()
    }
  }
}

protocol LoadNotesUseCase: Sendable {
  func callAsFunction() -> OutcomeStream<[Note], DomainError>
}

struct LoadNotes: LoadNotesUseCase {
  let repository: any NoteRepository

  func callAsFunction() -> OutcomeStream<[Note], DomainError> {
    .outcome { [repository] () async throws(DomainError) in try await repository.notes() }
  }
}

struct NotesFeature: Feature {
  enum Action {
    case appeared
  }

  enum SideEffect {
    case loaded([Note])
    case failed(String)
  }

  struct State: Equatable {
    var notes: [Note] = []
    var errorMessage: String?
  }

  enum Event: Equatable {}

  enum Lane: Hashable {
    case load
  }

  let loadNotes: any LoadNotesUseCase

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    .run(.latest(.load)) { [loadNotes] effects in
      await effects.follow(
        loadNotes(), onValue: { .apply(.loaded($0)) }, onFailure: { .apply(.failed($0.message)) })
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loaded(let notes): (state.notes, state.errorMessage) = (notes, nil)
    case .failed(let message): state.errorMessage = message
    }
  }
}

/// The app's backend, in process: the first request for the notes fails with a 500, the next
/// ones answer.
actor NotesBackend {
  private(set) var requests: [String] = []

  func answer(_ request: InProcessRequest) -> InProcessReply {
    requests.append("\(request.method) \(request.percentEncodedPath)")
    let (status, body) =
      requests.count == 1 ? (500, #"{"message":"down"}"#) : (200, #"[{"id":1,"title":"Milk"}]"#)
    return .respond(
      .init(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
  }
}

/// The app's auth server: a challenge, then a session for its answer.
actor SessionBackend {
  private(set) var requests: [String] = []

  func answer(_ request: InProcessRequest) -> InProcessReply {
    requests.append("\(request.method) \(request.path)")
    let body = request.path == "/challenge" ? #"{"id":"c-1"}"# : #"{"token":"t-1"}"#
    return .respond(.init(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
  }
}

/// The app's login contract, a sign-in in two steps: a challenge fetched, then answered with the
/// password.
struct NotesAuthContract: AuthContract {
  struct Steps: LoginSteps {
    let username: String
    let password: String

    func tokenRequest(through client: any HTTPClient) async throws(NetworkError) -> Endpoint<IssuedTokens> {
      let challenge = try await client.send(Endpoint<[String: String]>(path: ["challenge"]))
      let answer = ["user": username, "password": password, "challenge": challenge["id"] ?? ""]
      return Endpoint<[String: String]>(method: .post, path: ["session"], body: .json(answer)).map {
        IssuedTokens(accessToken: $0["token"] ?? "", refreshToken: nil, expiry: .unknown)
      }
    }
  }

  func logIn(username: String, password: String) -> Steps {
    Steps(username: username, password: password)
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Endpoint<[String: String]>(method: .post, path: ["session", "renewal"]).map {
      IssuedTokens(accessToken: $0["token"] ?? "", refreshToken: nil, expiry: .unknown)
    }
  }
}

@Suite("An app's own slice in a target whose default isolation is the main actor", .timeLimit(.minutes(1)))
struct AppTargetSliceTests {
  /// The feature over its repository, whose client reaches `backend` in process.
  private static func feature(over backend: NotesBackend) -> NotesFeature {
    let transport = InProcessTransport(StubHandler { await backend.answer($0) })
    let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
    return NotesFeature(loadNotes: LoadNotes(repository: RemoteNoteRepository(client: client)))
  }

  @Test("its view model shows a failed load, then loads on the next appearance, over its own repository")
  func failedLoadThenLoad() async {
    let backend = NotesBackend()
    let viewModel = ViewModel(Self.feature(over: backend), initialState: NotesFeature.State())

    await viewModel.sendAndWait(.appeared)
    #expect(viewModel.state == NotesFeature.State(errorMessage: DomainError.server(status: 500).message))
    await viewModel.sendAndWait(.appeared)
    #expect(viewModel.state == NotesFeature.State(notes: [Note(id: 1, text: "Milk")]))
    #expect(await backend.requests == ["GET /notes", "GET /notes"])
  }

  @Test("the test store an app's tests use drives it in such a target too")
  func testStoreDrivesIt() async {
    let store = TestStore(Self.feature(over: NotesBackend()), initialState: .init())

    store.send(.appeared)
    await store.receive { $0.errorMessage = DomainError.server(status: 500).message }
    store.send(.appeared)
    await store.receive { ($0.notes, $0.errorMessage) = ([Note(id: 1, text: "Milk")], nil) }
    await store.finish()
  }

  @Test("its own login contract signs in with its two steps, off the main actor as any contract is")
  func ownLoginSteps() async throws {
    let backend = SessionBackend()
    let transport = InProcessTransport(StubHandler { await backend.answer($0) })
    let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
    let store = InMemoryTokenStore()
    let sessions = RemoteSessionRepository(
      client: client, contract: NotesAuthContract(), tokenStore: store,
      sessionEvents: AsyncStream { $0.finish() })

    _ = try await sessions.logIn(username: "ada", password: "pass-4e1c7b")

    #expect(await backend.requests == ["GET /challenge", "POST /session"])
    #expect(store.tokens?.accessToken == "t-1")
  }
}
