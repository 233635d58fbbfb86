public import DomainLayer
public import NetworkLayer

/// An `ArticleRepository` backed by the HTTP API.
public struct RemoteArticleRepository: ArticleRepository {
  private let client: any HTTPClient

  /// Creates the repository on top of a client for the API.
  public init(client: any HTTPClient) {
    self.client = client
  }

  /// Fetches today's article.
  ///
  /// - Returns: the article, valid.
  /// - Throws: the `DomainError` for the network failure, or `DomainError.invalidData(reason:)`
  ///   when the date is not ISO 8601 or the title or body is blank.
  public func todaysArticle() async throws(DomainError) -> Article {
    try await client.sendTranslatingErrors(ArticleEndpoints.today).toDomain()
  }
}
