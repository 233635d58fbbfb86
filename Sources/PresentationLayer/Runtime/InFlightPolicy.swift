/// How an action's async work gets along with work already in flight.
///
/// Work is grouped into lanes, named by the feature's ``Feature/Lane`` type: only work in the
/// same lane is governed together, so a search never cancels a save. A lane's work is "live"
/// from the moment its action is sent until its operation returns or it is cancelled; work
/// waiting for its turn in a ``Mode/queue`` counts as live. Work that has been superseded or
/// cancelled is no longer live, even if its operation has not yet noticed: it can no longer
/// change the state or emit events.
public struct InFlightPolicy<Lane: Hashable & Sendable>: Sendable, Hashable {
  /// What happens to new work when its lane already has live work.
  public enum Mode: Sendable, Hashable {
    /// Run at once, alongside anything in flight.
    case merge
    /// Cancel every live work of the lane, then run at once.
    case latest
    /// Do not run while the lane has live work; the action's immediate effects still apply.
    case dropWhileBusy
    /// Run once every earlier live work of the lane has ended, in send order.
    case queue
  }

  /// The lane whose work this policy governs together.
  public let lane: Lane

  /// What happens when the lane already has live work.
  public let mode: Mode

  private init(lane: Lane, mode: Mode) {
    self.lane = lane
    self.mode = mode
  }

  /// Runs at once, alongside anything in flight in `lane`.
  public static func merge(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .merge)
  }

  /// Cancels the live work of `lane` (running or waiting its turn), then runs at once.
  ///
  /// The cancelled work's Task is cancelled, and anything it still applies or emits is ignored,
  /// even if it never checks for cancellation. Suits a search field: only the latest query counts.
  public static func latest(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .latest)
  }

  /// Ignores this work while `lane` has live work; runs at once otherwise.
  ///
  /// The check happens on the main actor while the action is sent, so however quickly actions
  /// arrive, two of them never both start. The dropped action's immediate effects are still
  /// applied: plans that must not show them while busy should return ``ActionPlan/none`` from the
  /// state instead. Suits a login button: a double tap signs in once.
  public static func dropWhileBusy(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .dropWhileBusy)
  }

  /// Runs once every earlier live work of `lane` has ended, so a lane of queued work is strictly
  /// first in, first out. Queued work that is cancelled before its turn never starts.
  public static func queue(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .queue)
  }
}

extension InFlightPolicy: CustomStringConvertible {
  /// `latest(search)`: the way the policy is written in a plan.
  public var description: String {
    "\(mode)(\(lane))"
  }
}
