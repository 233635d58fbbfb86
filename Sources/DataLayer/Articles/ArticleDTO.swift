/// The day's article exactly as the API sends it.
public struct ArticleDTO: Codable, Sendable, Hashable {
  public var id: Int
  public var title: String
  public var body: String
  /// An ISO 8601 timestamp such as `2026-11-21T08:00:00Z`.
  public var publishedAt: String

  /// Creates a DTO.
  public init(id: Int, title: String, body: String, publishedAt: String) {
    self.id = id
    self.title = title
    self.body = body
    self.publishedAt = publishedAt
  }
}
