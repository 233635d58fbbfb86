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
    /// Do not run while the lane has live work; the immediate effects planned with it go too.
    case dropWhileBusy
    /// Run once every earlier live work of the lane has ended, in send order.
    case queue
    /// Cancel every live work of the lane, then run once the lane has been quiet this long.
    case debounce(Duration)
    /// Run at most once per interval; `latest` says which action waiting in an interval runs at
    /// its end: the last one sent, or the first.
    case throttle(Duration, latest: Bool)
  }

  /// The lane whose work this policy governs together.
  public let lane: Lane

  /// What happens when the lane already has live work.
  public let mode: Mode

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

  /// Ignores this work and the immediate effects planned with it while `lane` has live work.
  ///
  /// Checked on the main actor as the action is sent, so two never both start. A guard on the
  /// state cannot see that work is live just after its last effect shows: a tap then changes
  /// nothing, so a "started" flag never outlives its work (``queue(_:)`` runs that tap once the
  /// work ends). Suits a login button: a double tap signs in once.
  public static func dropWhileBusy(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .dropWhileBusy)
  }

  /// Runs once every earlier live work of `lane` has ended, so a lane of queued work is strictly
  /// first in, first out. Queued work that is cancelled before its turn never starts.
  public static func queue(_ lane: Lane) -> Self {
    Self(lane: lane, mode: .queue)
  }
}

extension InFlightPolicy {
  /// Cancels the live work of `lane`, like ``latest(_:)``, then waits `interval` on the view
  /// model's clock before the work starts; each new action in the lane cancels that wait and
  /// starts its own. Suits a search box: typing a word fast sends one request, for the word.
  ///
  /// The wait is part of the work: it is live while it waits, and its deadline is fixed when the
  /// action is sent, so a test clock moved after the send reaches it.
  public static func debounce(_ lane: Lane, for interval: Duration) -> Self {
    Self(lane: lane, mode: .debounce(interval))
  }

  /// Starts work at once when `lane` has started none in the last `interval`; otherwise holds it
  /// until the interval ends, then starts it and begins a new interval. Of the actions sent while
  /// one is held, the last one waits when `latest` is true, the first one otherwise; the others'
  /// work is dropped (their immediate effects still apply). Work already running is not
  /// cancelled. Suits a refresh button that may be pressed often but should load at most once a
  /// second.
  public static func throttle(_ lane: Lane, every interval: Duration, latest: Bool = true) -> Self {
    Self(lane: lane, mode: .throttle(interval, latest: latest))
  }
}

extension InFlightPolicy: CustomStringConvertible {
  /// `latest(search)`: the way the policy is written in a plan.
  public var description: String {
    switch mode {
    case .debounce(let interval): "debounce(\(lane), for: \(interval))"
    case .throttle(let interval, let latest): "throttle(\(lane), every: \(interval), latest: \(latest))"
    default: "\(mode)(\(lane))"
    }
  }
}
