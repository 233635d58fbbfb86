/// Loads the day's article from an ``ArticleRepository``.
public struct LoadTodaysArticle: LoadTodaysArticleUseCase {
  private let repository: any ArticleRepository

  /// Creates the use case.
  public init(repository: any ArticleRepository) {
    self.repository = repository
  }

  /// Loads today's article and yields it, or the reason there is none.
  public func callAsFunction() -> OutcomeStream<Article, DomainError> {
    .outcome { [repository] () async throws(DomainError) in
      try await repository.todaysArticle()
    }
  }
}
