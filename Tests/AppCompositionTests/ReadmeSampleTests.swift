import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import PresentationLayer
import SampleBackend
import Testing

/// The README's one whole feature, line for line as the README writes it (`scripts/doc-samples`
/// fails when a line of it is missing here), in a namespace of its own beside the package's own
/// article feature, which it shadows. Left as the README lays it out, which is denser than this
/// package's format.
// swift-format-ignore
enum ReadmeSample {
  // DataLayer: the endpoint names the type the answer decodes to; the repository maps the DTO to
  // the domain's entity and every failure to a DomainError.
  enum ArticleEndpoints {
    static let today = Endpoint<ArticleDTO>(path: ["articles", "today"])
  }
  struct RemoteArticleRepository: ArticleRepository {
    let client: any HTTPClient
    func todaysArticle() async throws(DomainError) -> Article {
      try await client.sendTranslatingErrors(ArticleEndpoints.today).toDomain()
    }
  }

  // DomainLayer: the use case turns the async call into a stream whose failures are elements.
  struct LoadTodaysArticle: LoadTodaysArticleUseCase {
    let repository: any ArticleRepository
    func callAsFunction() -> OutcomeStream<Article, DomainError> {
      .outcome { [repository] () async throws(DomainError) in try await repository.todaysArticle() }
    }
  }

  // PresentationLayer: Action → SideEffect → State. A failure is a side effect like any other, so
  // the next .appeared still loads.
  struct ArticleFeature: Feature {
    enum Action { case appeared }
    enum SideEffect { case loadStarted, loaded(Article), loadFailed }
    struct State: Equatable { var article = Article.placeholder, isLoading = false }
    enum Event: Equatable { case loadFailed(message: String) }
    enum Lane { case load }
    let loadArticle: any LoadTodaysArticleUseCase

    func plan(for action: Action, in state: State) -> ActionPlan<Self> {
      .run(.latest(.load), immediate: [.loadStarted]) { [loadArticle] effects in
        await effects.follow(
          loadArticle(),
          onValue: { .apply(.loaded($0)) },
          onFailure: { .apply(.loadFailed, emitting: .loadFailed(message: $0.message)) })
      }
    }

    static func reduce(_ state: inout State, _ effect: SideEffect) {
      switch effect {
      case .loadStarted: state.isLoading = true
      case .loaded(let article): (state.isLoading, state.article) = (false, article)
      case .loadFailed: (state.isLoading, state.article) = (false, .placeholder)
      }
    }
  }
}

extension ReadmeSample {
  /// The README's feature over its repository and use case, against an API that answers as the
  /// sample API does, and the README's test of it.
  @Suite("The README's sample feature, as the README writes it")
  @MainActor
  struct Tests {
    private nonisolated static let json =
      #"{"id":7,"title":"Streams","body":"A failure is a value.","publishedAt":"2026-11-21T08:00:00Z"}"#

    private static func article() throws -> Article {
      try ArticleDTO(
        id: 7, title: "Streams", body: "A failure is a value.", publishedAt: "2026-11-21T08:00:00Z"
      ).toDomain()
    }

    /// Its last four lines are the README's test, as the README lays them out.
    // swift-format-ignore
    @Test("the README's test passes: the feature loads today's article through the README's layers")
    func readmeTest() async throws {
      let api = StubHandler.transport(status: 200, body: Self.json)
      let client = URLSessionHTTPClient(baseURL: api.baseURL, transport: api)
      let fake = LoadTodaysArticle(repository: RemoteArticleRepository(client: client))
      let article = try Self.article()

      let store = TestStore(ArticleFeature(loadArticle: fake), initialState: .init())
      store.send(.appeared) { $0.isLoading = true }
      await store.receive { $0.isLoading = false; $0.article = article }
      await store.finish()
    }

    @Test("a failed load is the placeholder and an event, and the next appearance loads")
    func failureThenLoad() async throws {
      let answers = Locked([500, 200])
      let api = InProcessTransport(
        StubHandler { _ in
          let status = answers.withLock { $0.removeFirst() }
          let body = status == 200 ? Self.json : #"{"error":"down"}"#
          let headers = ["Content-Type": "application/json"]
          return .respond(InProcessResponse(status: status, headers: headers, body: Data(body.utf8)))
        })
      let client = URLSessionHTTPClient(baseURL: api.baseURL, transport: api)
      let load = LoadTodaysArticle(repository: RemoteArticleRepository(client: client))
      let store = TestStore(ArticleFeature(loadArticle: load), initialState: .init())
      let article = try Self.article()

      store.send(.appeared) { $0.isLoading = true }
      await store.receive { $0.isLoading = false }
      await store.receive(event: .loadFailed(message: DomainError.server(status: 500).message))
      store.send(.appeared) { $0.isLoading = true }
      await store.receive {
        $0.isLoading = false
        $0.article = article
      }
      await store.finish()
    }
  }
}
