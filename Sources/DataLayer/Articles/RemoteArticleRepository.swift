public import DomainLayer
public import NetworkLayer

/// An `ArticleRepository` backed by the HTTP API.
public struct RemoteArticleRepository: ArticleRepository {
  private let client: any HTTPClient

  /// Creates the repository on top of a client for the API.
  public init(client: any HTTPClient) {
    self.client = client
  }

  public func todaysArticle() async throws(DomainError) -> Article {
    try await client.sendTranslatingErrors(ArticleEndpoints.today).toDomain()
  }
}
