/// The day's article exactly as the API sends it.
public struct ArticleDTO: Codable, Sendable, Hashable {
  /// The server's id for the article.
  public var id: Int
  /// The headline; ``toDomain()`` rejects a blank one.
  public var title: String
  /// The article's text; ``toDomain()`` rejects a blank one.
  public var body: String
  /// An ISO 8601 timestamp such as `2026-11-21T08:00:00Z`, with fractions of a second or an
  /// offset as servers write them (`.123Z`, `+02:00`).
  public var publishedAt: String

  /// Creates a DTO.
  public init(id: Int, title: String, body: String, publishedAt: String) {
    self.id = id
    self.title = title
    self.body = body
    self.publishedAt = publishedAt
  }
}
