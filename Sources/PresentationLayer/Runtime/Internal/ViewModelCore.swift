import DomainLayer
import LayeredSupport
public import Observation

/// Runs a ``Feature`` on the main actor: actions in, states and one-shot events out.
///
/// A SwiftUI view reads ``state`` and re-renders when it changes (the class is `@Observable`);
/// UIKit and AppKit code, and tests, consume ``states`` and ``events``.
///
/// Guarantees:
/// - ``send(_:)`` plans the action, applies its immediate effects and schedules its work by each
///   operation's ``InFlightPolicy`` synchronously, on the main actor, in send order, so a
///   ``InFlightPolicy/dropWhileBusy(_:)`` lane never starts twice.
/// - The state is published only when it changes: the immediate effects of one action publish
///   one state, and each effect applied by work publishes one.
/// - Work runs off the main actor, at the priority and with the task-local values of the task
///   that sent its action, and reports back through its ``Effects``. Work that has been
///   superseded or cancelled cannot change the state or emit events, whether or not its
///   operation checks for cancellation.
/// - No outcome of any work can stop later actions from working: a failure is a side effect like
///   any other, and each action starts work of its own.
/// - Work holds the view model weakly. Releasing it, or calling ``cancel()``, cancels all work
///   (the cancellation reaches the operations' Tasks, and through them any request underneath)
///   and ends every ``states`` and ``events`` sequence, each observer of ``states`` on the final
///   state.
@MainActor
@Observable
public final class ViewModel<F: Feature> {
  /// The current state. Reading it from a SwiftUI view (or inside `withObservationTracking`)
  /// tracks it: a change of the state, and only a change, notifies the view.
  public var state: F.State {
    isStateRead = true
    access(keyPath: stateKeyPath)
    return current
  }

  // `state` is tracked by hand through the helpers @Observable generates, with a key path made
  // once: a key path literal into a generic class is instantiated anew at every use.
  // `current` skips the run-time exclusivity check, as `ledger` below does and for its reason.
  @ObservationIgnored @exclusivity(unchecked) var current: F.State
  @ObservationIgnored lazy var stateKeyPath: KeyPath<ViewModel<F>, F.State> = \.state
  // Observation can be watching `state` only once something has read it, since its getter is
  // where observers register. Until then a new state skips the registrar's willSet and didSet, so
  // a screen that watches `states` alone (UIKit) never pays for them.
  @ObservationIgnored @exclusivity(unchecked) var isStateRead = false

  @ObservationIgnored let feature: F
  @ObservationIgnored nonisolated let stateBroadcaster: ConflatedBroadcaster<F.State>
  @ObservationIgnored nonisolated let eventBroadcaster = EventBroadcaster<F.Event>()
  /// The Tasks of running work, reachable from `deinit`, which may run on any thread.
  @ObservationIgnored nonisolated let runningTasks = Locked<[RunningTask]>([])
  /// What work reported without waiting for the main actor, in the order it reported it.
  @ObservationIgnored nonisolated let mailbox = Locked(ReportMailbox())
  // Unchecked: the main actor already rules out overlapping access from two threads, and no
  // function here holds an access to the ledger across a call that touches it again.
  @ObservationIgnored @exclusivity(unchecked) var ledger = WorkLedger()
  /// The operations of queued work, and the priority each was sent at, until its turn comes.
  @ObservationIgnored var queuedWork: [Int: (work: ActionPlan<F>.Work, priority: TaskPriority)] = [:]
  @ObservationIgnored var isShutDown = false
  /// The clock of every wait the runtime makes (debounce, throttle) and of ``Effects/clock``.
  @ObservationIgnored nonisolated let clock: any Clock<Duration>
  /// The throttled lanes whose interval is running, each with the work it holds, if any.
  @ObservationIgnored var throttleWindows: [ThrottleWindow] = []
  /// Sees every output in order; set by the test store of the test-support library.
  ///
  /// The outputs are built only in the `record` functions, and only when there is a tap: code
  /// that is not specialised for a feature looks the metadata of a generic type up in every
  /// function that builds one of its values, whether that line runs or not.
  // Unchecked, as `ledger` is: it is read on every state, event and end of work.
  @ObservationIgnored @exclusivity(unchecked) package var tap: ((ViewModelOutput<F>) -> Void)?

  /// Creates a view model that runs `feature`, starting from `initialState`, timing its waits on
  /// `clock` (a test passes one it moves by hand). Nonisolated, so a composition root that is not
  /// on the main actor can make one; use it on the main actor.
  public nonisolated init(
    _ feature: F, initialState: F.State, clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.feature = feature
    self.clock = clock
    current = initialState
    stateBroadcaster = ConflatedBroadcaster(initialState)
  }

  deinit {
    let tasks = runningTasks.withLock { tasks in
      defer { tasks.removeAll() }
      return tasks
    }
    for running in tasks { running.task.cancel() }
    eventBroadcaster.finish()
    // `deinit` may run on any thread; the broadcaster belongs to the main actor.
    Task { @MainActor [stateBroadcaster] in stateBroadcaster.finish() }
  }

  /// Sends `action` like ``send(_:)``; returns the ids of the work it scheduled, among which
  /// ``sendAndWait(_:)`` waits for the awaited work.
  package func sendTrackingWork(_ action: F.Action) -> Range<Int> {
    accept(action)
  }

  /// Whether any work with an id in `ids` that ``sendAndWait(_:)`` would wait for is live
  /// (running or queued).
  package func isAnyAwaitedLive(in ids: Range<Int>) -> Bool {
    ledger.isAnyAwaitedLive(in: ids)
  }

  /// Whether any work that ``sendAndWait(_:)`` would wait for is live (running or queued).
  package var hasAwaitedWork: Bool {
    ledger.entries.contains { $0.isAwaited }
  }

  /// Whether any work at all is live, watches included.
  package var hasLiveWork: Bool {
    !ledger.entries.isEmpty
  }

  /// Plans `action`, applies its immediate effects and schedules its work; returns the ids made
  /// for that work, the awaited and live ones among which a waiter waits for.
  ///
  /// A range, not a list, which would be allocated on every action: scheduling runs no code of
  /// the app's (the immediate state is published before it), so no id is made meanwhile except
  /// for this work, and work that was dropped, or has already ended, is not in the ledger.
  @discardableResult
  func accept(_ action: F.Action) -> Range<Int> {
    guard !isShutDown else { return 0..<0 }
    let plan = feature.plan(for: action, in: current)
    if plan.hasDroppableEffects { return accept(dropping: plan) }
    let immediate = plan.immediate
    // `count`, not `isEmpty`: on an unspecialised generic array, `isEmpty` is `Collection`'s and
    // looks the conformance up at run time on every send.
    if immediate.count > 0 {
      var next = current
      // By index: a `for in` over a generic array instantiates its iterator's metadata each time.
      for index in 0..<immediate.count { F.reduce(&next, immediate[index]) }
      publish(next)
    }
    let firstID = ledger.nextID
    if plan.hasWork {
      let work = plan.work
      for index in 0..<work.count { schedule(work[index]) }
    }
    return firstID..<ledger.nextID
  }

  /// Accepts `plan` as ``accept(_:)`` does, except that its work is scheduled first, so that the
  /// effects planned with work that `dropWhileBusy` drops are left out.
  ///
  /// Nothing can tell the two orders apart but the test store, which sees a cancelled lane's end
  /// before the state: work reaches the state only through the main actor, which this holds.
  private func accept(dropping plan: ActionPlan<F>) -> Range<Int> {
    let firstID = ledger.nextID
    var dropped: [Range<Int>] = []
    for work in plan.work {
      if work.mode == .dropWhileBusy, !ledger.liveWork(inLane: work.lane).isEmpty {
        dropped.append(work.immediates)
      }
      schedule(work)
    }
    var next = current
    var isAnyApplied = false
    for index in plan.immediate.indices where !dropped.contains(where: { $0.contains(index) }) {
      F.reduce(&next, plan.immediate[index])
      isAnyApplied = true
    }
    if isAnyApplied { publish(next) }
    return firstID..<ledger.nextID
  }

  /// Records `work` as queued behind the live work `after`, to start at `priority` in its turn.
  func enqueue(
    _ work: ActionPlan<F>.Work, id: Int, lane: WorkLane, after live: [Int], priority: TaskPriority
  ) {
    ledger.add(.init(id: id, lane: lane, isAwaited: work.isAwaited, phase: .queued(after: live)))
    queuedWork[id] = (work, priority)
  }

  /// Forgets the queued work `unstarted` and starts the queued work `ready`, whose turn has come.
  func updateQueue(forgetting unstarted: [Int], starting ready: [Int]) {
    for id in unstarted { queuedWork[id] = nil }
    for id in ready {
      if let queued = queuedWork.removeValue(forKey: id) { start(id, queued.work, priority: queued.priority) }
    }
  }

  /// Forgets the work whose id `isEnding`, cancelling its Tasks if asked, wakes the callers of
  /// ``sendAndWait(_:)`` to look at their work again, and starts the queued work whose turn has
  /// come.
  ///
  /// Only running work has a Task, so the Tasks to forget are those whose id `isEnding`, whether
  /// or not the work was still live. A predicate, not a list of ids: the one id of work that
  /// returned would otherwise be put in an array allocated for it.
  func end(where isEnding: (Int) -> Bool, cancelling: Bool) {
    let (endedCount, unstarted, ready) = ledger.end(where: isEnding)
    guard endedCount > 0 else { return }
    let cancelled = runningTasks.withLock { tasks in
      var cancelled: [Task<Void, Never>] = []
      tasks.removeAll { running in
        guard isEnding(running.id) else { return false }
        if cancelling { cancelled.append(running.task) }
        return true
      }
      return cancelled
    }
    for task in cancelled { task.cancel() }
    wakeWaiters()
    if !unstarted.isEmpty || !ready.isEmpty { updateQueue(forgetting: unstarted, starting: ready) }
    if tap != nil { recordWorkEnded(count: endedCount) }
  }

  /// Folds `effect` into the state and publishes it if the work `id` is still running; returns
  /// whether the state changed.
  @discardableResult
  func reduce(_ effect: F.SideEffect, fromWork id: Int) -> Bool {
    guard ledger.isRunning(id) else { return false }
    var next = current
    F.reduce(&next, effect)
    return publish(next)
  }

  /// Sends `event` to every listener if the work `id` is still running.
  func broadcast(_ event: F.Event, fromWork id: Int) {
    guard ledger.isRunning(id) else { return }
    eventBroadcaster.send(event)
    if tap != nil { recordEvent(event) }
  }

  /// Makes `next` the state if it differs, for Observation and every observer of ``states``;
  /// returns whether it did.
  @discardableResult
  func publish(_ next: F.State) -> Bool {
    guard next != current else { return false }
    if isStateRead {
      withMutation(keyPath: stateKeyPath) { current = next }
    } else {
      current = next
    }
    stateBroadcaster.publish(next)
    if tap != nil { recordState(next) }
    return true
  }

  func recordState(_ state: F.State) {
    tap?(.state(state))
  }

  func recordEvent(_ event: F.Event) {
    tap?(.event(event))
  }

  func recordWorkEnded(count: Int) {
    for _ in 0..<count { tap?(.workEnded) }
  }
}
