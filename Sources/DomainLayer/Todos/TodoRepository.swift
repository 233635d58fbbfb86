/// Where todos come from. The domain names the role; the data layer supplies the mechanism
/// (over HTTP, from a cache, from a fixture).
///
/// Implementations report every failure as a ``DomainError`` and honour task cancellation by
/// stopping their work and throwing ``DomainError/cancelled``.
public protocol TodoRepository: Sendable {
  /// All todos visible to the current user, ordered by id.
  func todos() async throws(DomainError) -> [Todo]
}
