/// A feature's lane with its type erased, so that the view model's ledger, which is not generic,
/// can tell whether two pieces of work share a lane.
///
/// Made where the plan is built, in the feature's module and specialised for its lane type, where
/// putting the lane into an existential involves no run-time look-up. An `AnyHashable` would be
/// built by the view model's unspecialised code instead, and checks through dynamic casts whether
/// the lane has a custom representation, on every action that schedules work. Nothing is hashed: the ledger only compares lanes, and only with those of live
/// work.
@usableFromInline
struct WorkLane: Sendable, Equatable {
  @usableFromInline let value: any Hashable & Sendable

  @inlinable
  init<Lane: Hashable & Sendable>(_ lane: Lane) {
    value = lane
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.value.isEqual(to: rhs.value)
  }
}

extension Hashable {
  /// Whether `other` is a value of this type equal to this one.
  fileprivate func isEqual(to other: any Hashable & Sendable) -> Bool {
    (other as? Self) == self
  }
}
