import DomainLayer
import PresentationLayer

extension Scenario {
  /// Seed scenario 2.
  static let articlePlaceholder = Scenario(
    name: "article-placeholder",
    title: "Today's article shows a placeholder and an error event on failure; the next appearance loads it"
  ) { stage in
    let article = stage.container.makeArticleViewModel()
    let events = EventTap(article.events)
    let path =
      "ArticleViewModel → LoadTodaysArticle → RemoteArticleRepository → URLSessionHTTPClient → GET /articles/today"

    stage.step("the server fails three times in a row; the screen appears", through: path)
    try await stage.control.inject(["path": "/articles/today", "status": 500, "count": 3])
    await article.sendAndWait(.appeared)
    stage.show("state", article.state)
    let failed = await events.drain(until: { !$0.isEmpty })
    stage.show("events", failed)
    stage.expect(article.state.article.isPlaceholder, "the placeholder is shown")
    stage.expect(
      failed == [.loadFailed(message: DomainError.server(status: 500).message)],
      "one error event, for an alert")

    stage.step("the screen appears again", through: path)
    await article.sendAndWait(.appeared)
    stage.show("state", article.state)
    stage.expect(!article.state.article.isPlaceholder, "the real article is shown")
    stage.expect(await events.drain().isEmpty, "no event on success")
  }
}
