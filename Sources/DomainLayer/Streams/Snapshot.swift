/// A value together with where it came from, for streams that yield a quick answer first and an
/// authoritative one after.
public struct Snapshot<Value: Sendable>: Sendable {
  /// Where a snapshot's value came from.
  public enum Source: Sendable, Hashable {
    /// Kept from an earlier fetch; may be out of date.
    case cache
    /// Fresh from the server.
    case server
  }

  /// The value itself.
  public let value: Value
  /// Where ``value`` came from: whether it may be out of date.
  public let source: Source

  /// Creates a snapshot.
  public init(_ value: Value, from source: Source) {
    self.value = value
    self.source = source
  }
}

extension Snapshot: Equatable where Value: Equatable {}
extension Snapshot: Hashable where Value: Hashable {}
