public import DomainLayer

/// A wire value that maps to a domain value, checking the domain's invariants on the way.
///
/// Conforming DTOs get ``Swift/Array/toDomain()`` for free, so a repository maps a list with one
/// call and one malformed element fails the whole list with `DomainError.invalidData(reason:)`.
public protocol DomainConvertible {
  /// The domain value this DTO becomes.
  associatedtype DomainValue
  /// The domain value, or `DomainError.invalidData(reason:)` when the DTO breaks an invariant.
  /// Never traps, whatever the server sent.
  func toDomain() throws(DomainError) -> DomainValue
}

extension Array where Element: DomainConvertible {
  /// Every element as a domain value, in order; the first invalid element fails the whole list,
  /// since showing part of a list as if it were all of it would be a quieter, worse failure.
  public func toDomain() throws(DomainError) -> [Element.DomainValue] {
    var values: [Element.DomainValue] = []
    values.reserveCapacity(count)
    for element in self { values.append(try element.toDomain()) }
    return values
  }
}
