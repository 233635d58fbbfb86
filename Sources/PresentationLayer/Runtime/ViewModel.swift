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
  // once: a key path literal into a generic class is instantiated anew at every use, which
  // cost microseconds on every send.
  // `current` skips the run-time exclusivity check, as `ledger` below does and for its reason.
  @ObservationIgnored @exclusivity(unchecked) private var current: F.State
  @ObservationIgnored private lazy var stateKeyPath: KeyPath<ViewModel<F>, F.State> = \.state
  // Observation can be watching `state` only once something has read it, since its getter is
  // where observers register. Until then a new state skips the registrar, whose willSet and didSet
  // are half of what publishing a state costs: a screen that watches `states` alone (UIKit) never
  // pays for them.
  @ObservationIgnored @exclusivity(unchecked) private var isStateRead = false

  @ObservationIgnored private let feature: F
  @ObservationIgnored private nonisolated let stateBroadcaster: ConflatedBroadcaster<F.State>
  @ObservationIgnored private nonisolated let eventBroadcaster = EventBroadcaster<F.Event>()
  /// The Tasks of running work, reachable from `deinit`, which may run on any thread.
  @ObservationIgnored private nonisolated let runningTasks = Locked<[RunningTask]>([])
  /// What work reported without waiting for the main actor, in the order it reported it.
  @ObservationIgnored private nonisolated let mailbox = Locked(ReportMailbox())
  // Unchecked: the main actor already rules out overlapping access from two threads, and no
  // function here holds an access to the ledger across a call that touches it again; the
  // run-time check would cost a lookup at each of the dozen accesses per action.
  @ObservationIgnored @exclusivity(unchecked) private var ledger = WorkLedger()
  /// The operations of queued work, and the priority each was sent at, until its turn comes.
  @ObservationIgnored private var queuedWork: [Int: (work: ActionPlan<F>.Work, priority: TaskPriority)] = [:]
  @ObservationIgnored private var isShutDown = false
  /// Sees every output in order; set by the test store of the test-support library.
  ///
  /// The outputs are built only in the `record` functions, and only when there is a tap: code
  /// that is not specialised for a feature looks the metadata of a generic type up in every
  /// function that builds one of its values, whether that line runs or not.
  // Unchecked, as `ledger` is: it is read on every state, event and end of work, and the run-time
  // check cost 76 instructions at each read, where publishing a state costs about 900.
  @ObservationIgnored @exclusivity(unchecked) package var tap: ((ViewModelOutput<F>) -> Void)?

  /// Creates a view model that runs `feature`, starting from `initialState`. Nonisolated, so a
  /// composition root that is not on the main actor can make one; use it on the main actor.
  public nonisolated init(_ feature: F, initialState: F.State) {
    self.feature = feature
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

  /// The current state at once, then its changes, for one observer at its own pace: conflated,
  /// so an observer that falls behind gets the latest state, never a stale one (see
  /// ``StateStream``).
  ///
  /// Any number of observers may listen at the same time. Each ends on the final state when the
  /// view model is cancelled or released.
  public nonisolated var states: StateStream<F.State> {
    StateStream(stateBroadcaster, owner: WeakDeliverer(self))
  }

  /// The events emitted from now on, for one listener; earlier events are never replayed.
  ///
  /// Every listener gets every event emitted while it listens, in order: events are never
  /// conflated. The stream finishes when the view model is cancelled or released.
  public nonisolated var events: AsyncStream<F.Event> {
    eventBroadcaster.stream()
  }

  /// Plans `action`, applies its immediate effects, schedules its work, and returns at once.
  ///
  /// Ignored once the view model has been cancelled.
  public func send(_ action: F.Action) {
    accept(action)
  }

  /// Sends `action` like ``send(_:)``, then returns once all of its work has ended.
  ///
  /// Work ends when its operation returns, or at the moment it is dropped, superseded or
  /// cancelled (from then on nothing it does reaches the view model, even if its operation runs
  /// on for a while). So this returns at once for an action without work or whose work was
  /// dropped, and waits for the turn and the completion of queued work. Watches
  /// (``ActionPlan/watch(_:immediate:_:)``) are not waited for. Cancelling the waiting task stops
  /// the wait, not the work: the work belongs to the view model.
  public func sendAndWait(_ action: F.Action) async {
    let pending = accept(action)
    // The waiter delivers what work reports itself, so that the outcome it waits for costs one
    // wake-up of the main actor, not one for the delivery and another for the waiter.
    while true {
      deliverReports()
      guard ledger.isAnyAwaitedLive(in: pending), !Task.isCancelled else { return }
      await waitForReports(on: pending)
    }
  }

  /// Cancels all work and ends every ``states`` and ``events`` sequence; later actions are
  /// ignored. The state keeps its last value. Calling it again does nothing more.
  public func cancel() {
    guard !isShutDown else { return }
    isShutDown = true
    end(where: { _ in true }, cancelling: true)
    stateBroadcaster.finish()
    eventBroadcaster.finish()
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

  // MARK: - Called through Effects

  /// Reduces and publishes `effect` if the work is still running, after what work reported
  /// earlier; returns whether the state changed.
  func apply(_ effect: F.SideEffect, fromWork id: Int) -> Bool {
    deliverReports()
    return reduce(effect, fromWork: id)
  }

  /// Sends `event` to every listener if the work is still running, after what work reported
  /// earlier.
  func emit(_ event: F.Event, fromWork id: Int) {
    deliverReports()
    broadcast(event, fromWork: id)
  }

  /// The current state, once what work reported earlier is in it.
  func stateAfterReports() -> F.State {
    deliverReports()
    return state
  }

  /// Queues `report` for the main actor and, unless a delivery is already due, schedules one.
  ///
  /// Work calls this from wherever it runs and goes on at once: an outcome and the end of the
  /// work that follows it are then typically delivered in one turn of the main actor, where
  /// awaiting each of them would cost a hop there and back. Reports are delivered in the order
  /// they were posted, and every call through ``Effects`` on the main actor delivers the ones
  /// still queued first, so a work's reports never overtake each other.
  ///
  /// A caller of ``sendAndWait(_:)`` that is waiting, at a priority no lower than the work's, is
  /// woken to deliver them itself; failing that, an observer of ``states`` waiting at such a
  /// priority; otherwise a Task on the main actor, at the work's priority, delivers them. (A
  /// waiter at a lower priority would hold up every other work's reports.)
  // Never inlined: in `Effects.follow`, an async function, its `TaskPriority` values (a type
  // whose size is known only at run time) would be allocated from the task's allocator on every
  // entry to the loop, where a call keeps them on the thread's stack.
  @usableFromInline @inline(never)
  nonisolated func post(_ report: WorkReport) {
    let priority = Task.currentPriority
    let delivery: ReportDelivery = mailbox.withLock { mailbox in
      mailbox.post(report)
      guard !mailbox.isDeliveryDue else { return .due }
      mailbox.isDeliveryDue = true
      guard let index = mailbox.waiters.firstIndex(where: { $0.priority >= priority }) else {
        return .byObserverOrTask
      }
      return .byWaiter(mailbox.waiters.remove(at: index).continuation)
    }
    switch delivery {
    case .due:
      return
    case .byObserverOrTask:
      if stateBroadcaster.lendWaitingObserver(atOrAbove: priority) { return }
      let owner = WeakDeliverer(self)
      Task { @MainActor in owner.target?.deliverReports() }
    case .byWaiter(let waiter):
      waiter.resume()
    }
  }

  // MARK: - Scheduling

  /// Plans `action`, applies its immediate effects and schedules its work; returns the ids made
  /// for that work, the awaited and live ones among which a waiter waits for.
  ///
  /// A range, not a list, which would be allocated on every action: scheduling runs no code of
  /// the app's (the immediate state is published before it), so no id is made meanwhile except
  /// for this work, and work that was dropped, or has already ended, is not in the ledger.
  @discardableResult
  private func accept(_ action: F.Action) -> Range<Int> {
    guard !isShutDown else { return 0..<0 }
    let plan = feature.plan(for: action, in: current)
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

  /// Starts, queues or drops `work` as its policy says.
  private func schedule(_ work: ActionPlan<F>.Work) {
    let lane = work.lane
    let priority = Task.currentPriority
    let live = ledger.liveWork(inLane: lane)
    let id = ledger.makeID()
    switch work.mode {
    case .merge:
      break
    case .latest:
      if !live.isEmpty { end(where: live.contains, cancelling: true) }
    case .dropWhileBusy:
      guard live.isEmpty else { return }
    case .queue where live.isEmpty:
      break
    case .queue:
      enqueue(work, id: id, lane: lane, after: live, priority: priority)
      return
    }
    ledger.add(.init(id: id, lane: lane, isAwaited: work.isAwaited, phase: .running))
    start(id, work, priority: priority)
  }

  /// Starts `work`'s operation off the main actor, in a Task of its own at `priority` (that of
  /// the task that sent its action, as a `Task { }` there would have), which holds the view model
  /// only weakly (through its ``Effects``).
  private func start(_ id: Int, _ work: ActionPlan<F>.Work, priority: TaskPriority) {
    let task = work.launch(self, id, priority, work.operation)
    runningTasks.withLock { $0.append(RunningTask(id: id, task: task)) }
  }

  /// Records `work` as queued behind the live work `after`, to start at `priority` in its turn.
  ///
  /// This and the other functions marked `@inline(never)` hold what a plain `latest` action never
  /// does: inlined, their generic types would be looked up on every action.
  @inline(never)
  private func enqueue(
    _ work: ActionPlan<F>.Work, id: Int, lane: WorkLane, after live: [Int], priority: TaskPriority
  ) {
    ledger.add(.init(id: id, lane: lane, isAwaited: work.isAwaited, phase: .queued(after: live)))
    queuedWork[id] = (work, priority)
  }

  /// Forgets the queued work `unstarted` and starts the queued work `ready`, whose turn has come.
  @inline(never)
  private func updateQueue(forgetting unstarted: [Int], starting ready: [Int]) {
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
  private func end(where isEnding: (Int) -> Bool, cancelling: Bool) {
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

  /// Acts on the queued reports, in order, until none is left.
  ///
  /// One report per turn of the lock, not the whole queue: the queue then keeps its storage from
  /// one action to the next, where handing it over would make each action's reports allocate it
  /// again.
  func deliverReports() {
    while let report = mailbox.withLock({ $0.take() }) {
      switch report {
      case .reaction(let apply):
        apply()
      case .returned(let id):
        end(where: { $0 == id }, cancelling: false)
      }
    }
  }

  /// Folds `effect` into the state and publishes it if the work `id` is still running; returns
  /// whether the state changed.
  @usableFromInline @discardableResult
  func reduce(_ effect: F.SideEffect, fromWork id: Int) -> Bool {
    guard ledger.isRunning(id) else { return false }
    var next = current
    F.reduce(&next, effect)
    return publish(next)
  }

  /// Sends `event` to every listener if the work `id` is still running.
  @usableFromInline
  func broadcast(_ event: F.Event, fromWork id: Int) {
    guard ledger.isRunning(id) else { return }
    eventBroadcaster.send(event)
    if tap != nil { recordEvent(event) }
  }

  /// Suspends a caller of ``sendAndWait(_:)`` until work posts a report (which it then
  /// delivers), work ends on the main actor, or its Task is cancelled; returns at once if a
  /// report is already waiting or none of the work `pending` is live.
  // The waiter is resumed the way every continuation is: on the global executor, from which it
  // hops to the main actor, one pool thread woken on the way. A task-executor preference whose
  // executor runs the resumption on the main queue would spare that thread, but the preference
  // then differs from the executor the task runs under at both edges of its scope, and each edge
  // costs a hop to the main actor of its own. Tried: context switches fell to raw URLSession's,
  // and time rose from 1.00–1.10× raw to 1.23–1.27×.
  private func waitForReports(on pending: Range<Int>) async {
    let waiterID = ledger.makeID()
    let priority = Task.currentPriority
    await withTaskCancellationHandler {
      // The mailbox resumes each continuation exactly once, by taking it out of `waiters` under
      // its lock before resuming it, whoever gets there first. Checked all the same: work
      // resumes it from its own thread, and an unsafe continuation's resume, compiled into this
      // module, makes ThreadSanitizer report the waiter's next write as a race whenever the
      // resume comes before the waiter has suspended (the runtime's own hand-over is invisible
      // to it), in this package's tests and in those of every app built on it.
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // The work is looked at again where the waiter registers, not only by the caller: should
        // anything ever suspend in between, work that ended meanwhile would wake nobody.
        guard ledger.isAnyAwaitedLive(in: pending) else { return continuation.resume() }
        // Checked under the lock the cancellation handler takes: either the handler finds the
        // continuation, or the cancellation is already visible here.
        let isWaiting = mailbox.withLock { mailbox in
          guard !mailbox.hasReports, !Task.isCancelled else { return false }
          mailbox.waiters.append(
            ReportWaiter(id: waiterID, continuation: continuation, priority: priority))
          return true
        }
        if !isWaiting { continuation.resume() }
      }
    } onCancel: {
      let waiter = mailbox.withLock { mailbox in
        mailbox.waiters.firstIndex { $0.id == waiterID }.map { mailbox.waiters.remove(at: $0) }
      }
      waiter?.continuation.resume()
    }
  }

  /// Wakes every caller of ``sendAndWait(_:)`` that is waiting, to look again at its work.
  private func wakeWaiters() {
    let waiters = mailbox.withLock { mailbox -> [ReportWaiter] in
      // Left alone when empty, as it usually is: emptied, it would give up its storage, which the
      // next waiter would allocate again.
      guard !mailbox.waiters.isEmpty else { return [] }
      defer { mailbox.waiters.removeAll() }
      return mailbox.waiters
    }
    for waiter in waiters { waiter.continuation.resume() }
  }

  /// Makes `next` the state if it differs, for Observation and every observer of ``states``;
  /// returns whether it did.
  @discardableResult
  private func publish(_ next: F.State) -> Bool {
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

  @inline(never)
  private func recordState(_ state: F.State) {
    tap?(.state(state))
  }

  @inline(never)
  private func recordEvent(_ event: F.Event) {
    tap?(.event(event))
  }

  @inline(never)
  private func recordWorkEnded(count: Int) {
    for _ in 0..<count { tap?(.workEnded) }
  }
}

// Not nested in the generic `ViewModel`, where they would be generic too, their layouts looked up
// at run time on every use (see `WorkLedger`).

/// Reports waiting for the main actor, and the callers of ``ViewModel/sendAndWait(_:)`` waiting
/// for them.
private struct ReportMailbox {
  /// The reports not yet delivered, from `delivered` on.
  private var reports: [WorkReport] = []
  private var delivered = 0
  /// Whether a delivery is scheduled or under way, which will take any report posted now.
  var isDeliveryDue = false
  var waiters: [ReportWaiter] = []

  var hasReports: Bool { delivered < reports.count }

  mutating func post(_ report: WorkReport) {
    reports.append(report)
  }

  /// The oldest report not yet delivered; `nil`, and no delivery due any more, when there is none.
  mutating func take() -> WorkReport? {
    guard hasReports else {
      // Cleared only when there is nothing to deliver, so that a report posted while a delivery
      // runs is either taken by it or schedules a delivery of its own.
      isDeliveryDue = false
      return nil
    }
    let report = reports[delivered]
    delivered += 1
    if delivered == reports.count {
      // A burst of reports may have grown the storage; only a small one is worth keeping.
      reports.removeAll(keepingCapacity: reports.capacity <= 16)
      delivered = 0
    }
    return report
  }
}

/// A caller of ``ViewModel/sendAndWait(_:)`` waiting for reports.
private struct ReportWaiter {
  let id: Int
  let continuation: CheckedContinuation<Void, Never>
  let priority: TaskPriority
}

extension ViewModel: ReportDeliverer {}

/// The Task of a running work, by the work's id.
private struct RunningTask {
  let id: Int
  let task: Task<Void, Never>
}

/// Who delivers a report just posted.
private enum ReportDelivery {
  /// The delivery already due takes it.
  case due
  /// An observer of the states waiting at the work's priority or above, lent to deliver it, or
  /// else a Task on the main actor, made for it.
  case byObserverOrTask
  /// A waiting caller of ``ViewModel/sendAndWait(_:)``, woken for it.
  case byWaiter(CheckedContinuation<Void, Never>)
}
