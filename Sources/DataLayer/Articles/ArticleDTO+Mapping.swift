public import DomainLayer
import Foundation

extension ArticleDTO: DomainConvertible {
  /// The domain value, or `DomainError.invalidData(reason:)` when the date is not ISO 8601 or a
  /// field breaks one of `Article`'s invariants.
  public func toDomain() throws(DomainError) -> Article {
    guard let date = try? Date(publishedAt, strategy: .iso8601) else {
      throw .invalidData(reason: "article \(id): publishedAt is not an ISO 8601 date")
    }
    return try Article(id: id, title: title, body: body, publishedAt: date)
  }
}
