/// Where the day's article comes from.
public protocol ArticleRepository: Sendable {
  /// Today's article.
  func todaysArticle() async throws(DomainError) -> Article
}
