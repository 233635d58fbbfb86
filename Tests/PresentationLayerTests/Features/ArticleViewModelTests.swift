import DomainLayer
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("ArticleViewModel", .timeLimit(.minutes(1)))
struct ArticleViewModelTests {
  @Test(
    "seed scenario 2: a failed load shows the placeholder and emits an error event; the next appearance loads the article"
  )
  func seedScenario2() async throws {
    let article = try #require(Fixtures.article)
    let viewModel = ArticleViewModel(
      loadArticle: FakeLoadArticle(script: Script([.failure(.timeout), .success(article)])))
    let events = StreamRecorder(viewModel.events)
    await viewModel.sendAndWait(.appeared)
    #expect(viewModel.state.article.isPlaceholder)
    #expect(await events.waitForCount(1) == [.loadFailed(message: DomainError.timeout.message)])
    await viewModel.sendAndWait(.appeared)
    #expect(viewModel.state.article == article)
    #expect(events.values.count == 1, "a success emits no event")
  }
}
