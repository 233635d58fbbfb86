public import Foundation

/// The day's article.
public struct Article: Sendable, Hashable, Identifiable {
  /// The server's id for the article; ``placeholder`` uses 0, which no server article has.
  public let id: Int
  /// The headline; never blank.
  public let title: String
  /// The article's text; never blank.
  public let body: String
  /// When the article was published.
  public let publishedAt: Date

  /// Creates an article, or fails with ``DomainError/invalidData(reason:)`` when the title or body
  /// is blank.
  public init(id: Int, title: String, body: String, publishedAt: Date) throws(DomainError) {
    guard !title.isBlank else { throw .invalidData(reason: "article \(id): title is blank") }
    guard !body.isBlank else { throw .invalidData(reason: "article \(id): body is blank") }
    self.init(unchecked: id, title: title, body: body, publishedAt: publishedAt)
  }

  private init(unchecked id: Int, title: String, body: String, publishedAt: Date) {
    self.id = id
    self.title = title
    self.body = body
    self.publishedAt = publishedAt
  }

  /// What a screen shows while there is no real article: a loading skeleton, or after a failure.
  /// Its id is 0, which no server article has.
  public static let placeholder = Article(
    unchecked: 0,
    title: "Today's article",
    body: "The article will appear here when it can be loaded.",
    publishedAt: Date(timeIntervalSince1970: 0)
  )

  /// Whether this is ``placeholder``.
  public var isPlaceholder: Bool { id == Self.placeholder.id }
}
