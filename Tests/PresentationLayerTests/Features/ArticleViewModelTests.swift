import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ArticleViewModel", .timeLimit(.minutes(1)))
@MainActor
struct ArticleViewModelTests {
  @Test(
    "seed scenario 2: a failed load shows the placeholder and emits an error event; the next appearance loads the article"
  )
  func seedScenario2() async throws {
    let article = try #require(Fixtures.article)
    let script = Script<Article>([.failure(.timeout), .success(article)])
    let store = TestStore(ArticleFeature(loadArticle: FakeLoadArticle(script: script)), initialState: .init())
    store.send(.appeared) { $0.isLoading = true }
    await store.receive { $0.isLoading = false }
    await store.receive(event: .loadFailed(message: DomainError.timeout.message))
    #expect(store.state.article.isPlaceholder)
    store.send(.appeared) { $0.isLoading = true }
    // A success emits no event: the store would fail on one.
    await store.receive {
      $0.isLoading = false
      $0.article = article
    }
    await store.finish()
  }
}
