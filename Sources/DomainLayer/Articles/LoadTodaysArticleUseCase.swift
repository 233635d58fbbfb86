/// Loads the day's article.
public protocol LoadTodaysArticleUseCase: Sendable {
  /// Starts a load and returns its one outcome.
  func callAsFunction() -> OutcomeStream<Article, DomainError>
}
