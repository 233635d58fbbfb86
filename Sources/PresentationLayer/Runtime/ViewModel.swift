import DomainLayer
import LayeredSupport

/// Runs a ``Feature``: actions in, states and one-shot events out.
///
/// Guarantees:
/// - ``send(_:)`` plans the action and applies its immediate effects synchronously, under one
///   lock, in send order; then schedules its work by each operation's ``InFlightPolicy``, under
///   the same lock, so a ``InFlightPolicy/dropWhileBusy(_:)`` lane never starts twice.
/// - The state is published only when a side effect changes it. Each new state is reduced and
///   numbered under one lock, so every observer sees the same states in the same order. They are
///   handed over once that lock is released, so no lock is held while an observer's Task is
///   resumed: that could deadlock against the observer being cancelled at the same moment.
/// - Work that has been superseded or cancelled cannot change the state or emit events, whether
///   or not its operation checks for cancellation.
/// - No outcome of any work can stop later actions from working: a failure is a side effect like
///   any other, and each action starts work of its own.
/// - Work holds the view model weakly. Releasing it, or calling ``cancel()``, cancels all work
///   (the cancellation reaches the operations' Tasks, and through them any request underneath)
///   and finishes every ``states`` and ``events`` stream.
public final class ViewModel<F: Feature>: Sendable {
  private let feature: F
  private let stateBroadcaster = EventBroadcaster<F.State>()
  private let eventBroadcaster = EventBroadcaster<F.Event>()
  private let ledger: Locked<Ledger>

  /// Creates a view model that runs `feature`, starting from `initialState`.
  public init(_ feature: F, initialState: F.State) {
    self.feature = feature
    ledger = Locked(Ledger(state: initialState))
  }

  deinit {
    shutDown()
  }

  /// The current state.
  public var state: F.State {
    ledger.withLock { $0.state }
  }

  /// A new stream for one observer: the current state at once, then every change, in order.
  ///
  /// Any number of observers may listen at the same time. The stream finishes when the view model
  /// is cancelled or released.
  public var states: AsyncStream<F.State> {
    // Under the lock that orders the states, so the stream starts exactly where the others are.
    ledger.withLock { stateBroadcaster.stream(startingWith: $0.state) }
  }

  /// A new stream for one listener of the events emitted from now on; earlier events are never
  /// replayed.
  ///
  /// Every listener gets every event emitted while it listens, in the same order. The stream
  /// finishes when the view model is cancelled or released.
  public var events: AsyncStream<F.Event> {
    eventBroadcaster.stream()
  }

  /// Plans `action`, applies its immediate effects, schedules its work, and returns at once.
  ///
  /// Ignored once the view model has been cancelled.
  public func send(_ action: F.Action) {
    let aftermath = ledger.withLock { ledger in
      var aftermath = Aftermath()
      _ = accept(action, in: &ledger, &aftermath)
      return aftermath
    }
    aftermath.carryOut()
    deliver()
  }

  /// Sends `action` like ``send(_:)``, then returns once all of its work has ended.
  ///
  /// Work ends when its operation returns, or at the moment it is dropped, superseded or
  /// cancelled (from then on nothing it does reaches the view model, even if its operation runs
  /// on for a while). So this returns at once for an action without work or whose work was
  /// dropped, and waits for the turn and the completion of queued work. Cancelling the waiting
  /// task stops the wait, not the work: the work belongs to the view model.
  public func sendAndWait(_ action: F.Action) async {
    let waiterID = ledger.withLock { $0.makeID() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let aftermath = ledger.withLock { ledger in
          var aftermath = Aftermath()
          let work = accept(action, in: &ledger, &aftermath)
          // Checked under the lock that `onCancel` takes, so a cancellation that came before the
          // waiter was registered is seen here, and one that comes after finds the waiter.
          if work.isEmpty || Task.isCancelled {
            aftermath.waitersToResume.append(continuation)
          } else {
            ledger.waiters[waiterID] = Waiter(pending: work, continuation: continuation)
          }
          return aftermath
        }
        aftermath.carryOut()
        deliver()
      }
    } onCancel: {
      ledger.withLock { $0.waiters.removeValue(forKey: waiterID) }?.continuation.resume()
    }
  }

  /// Cancels all work and finishes every ``states`` and ``events`` stream; later actions are
  /// ignored. The state keeps its last value. Calling it again does nothing more.
  public func cancel() {
    shutDown()
  }

  // MARK: - Called through Effects

  /// Reduces and publishes `effect` if the work is still running.
  func apply(_ effect: F.SideEffect, fromWork id: Int) {
    ledger.withLock { ledger in
      guard ledger.isRunning(id) else { return }
      publish(effect, in: &ledger)
    }
    deliver()
  }

  /// Sends `event` to every listener if the work is still running.
  func emit(_ event: F.Event, fromWork id: Int) {
    ledger.withLock { ledger in
      guard ledger.isRunning(id) else { return }
      eventBroadcaster.enqueue(event)
    }
    deliver()
  }

  /// Whether the work is still running: neither ended nor superseded nor cancelled.
  func isLive(_ id: Int) -> Bool {
    ledger.withLock { $0.isRunning(id) }
  }

  /// Ends work whose operation has returned, which may give queued work its turn.
  func operationReturned(fromWork id: Int) {
    let aftermath = ledger.withLock { ledger in
      var aftermath = Aftermath()
      end([id], cancelling: false, in: &ledger, &aftermath)
      return aftermath
    }
    aftermath.carryOut()
  }

  // MARK: - Under the lock

  /// Plans `action`, applies its immediate effects and schedules its work; returns the work that
  /// is still live afterwards, which a waiter waits for.
  private func accept(_ action: F.Action, in ledger: inout Ledger, _ aftermath: inout Aftermath) -> Set<Int> {
    guard !ledger.isShutDown else { return [] }
    let plan = feature.plan(for: action, in: ledger.state)
    for effect in plan.immediate { publish(effect, in: &ledger) }
    let scheduled = plan.work.compactMap { schedule($0, in: &ledger, &aftermath) }
    // A later `latest` of the same plan may already have cancelled an earlier part of it.
    return Set(scheduled.filter { ledger.entries[$0] != nil })
  }

  /// Starts, queues or drops `work` as its policy says; returns its id unless it was dropped.
  private func schedule(
    _ work: ActionPlan<F>.Work,
    in ledger: inout Ledger,
    _ aftermath: inout Aftermath
  ) -> Int? {
    let live = ledger.liveWork(inLane: work.policy.lane)
    let id = ledger.makeID()
    switch work.policy.mode {
    case .merge:
      start(id, work, in: &ledger)
    case .latest:
      end(live, cancelling: true, in: &ledger, &aftermath)
      start(id, work, in: &ledger)
    case .dropWhileBusy:
      guard live.isEmpty else { return nil }
      start(id, work, in: &ledger)
    case .queue where live.isEmpty:
      start(id, work, in: &ledger)
    case .queue:
      ledger.entries[id] = Entry(lane: work.policy.lane, phase: .queued(after: live, work))
    }
    return id
  }

  /// Starts `work`'s operation in a Task of its own, which holds the view model only weakly
  /// (through its ``Effects``).
  private func start(_ id: Int, _ work: ActionPlan<F>.Work, in ledger: inout Ledger) {
    let effects = Effects(viewModel: self, workID: id)
    let operation = work.operation
    let task = Task {
      // Work superseded before its Task got going never starts.
      if effects.isLive { await operation(effects) }
      effects.operationReturned()
    }
    ledger.entries[id] = Entry(lane: work.policy.lane, phase: .running(task))
  }

  /// Forgets the work `ids`, cancelling its Tasks if asked, releases the waiters that no longer
  /// wait for anything, and starts the queued work whose turn has come.
  private func end(
    _ ids: Set<Int>,
    cancelling: Bool,
    in ledger: inout Ledger,
    _ aftermath: inout Aftermath
  ) {
    let ready = ledger.end(ids, cancelling: cancelling, &aftermath)
    for (id, work) in ready { start(id, work, in: &ledger) }
  }

  /// Folds `effect` into the state and queues the result for observers if it changed; the
  /// caller delivers it with ``deliver()`` once the lock is released.
  private func publish(_ effect: F.SideEffect, in ledger: inout Ledger) {
    var next = ledger.state
    F.reduce(&next, effect)
    guard next != ledger.state else { return }
    ledger.state = next
    stateBroadcaster.enqueue(next)
  }

  // MARK: - Outside the lock

  /// Hands queued states and events to their observers, in order. Must not be called under the
  /// lock: see `EventBroadcaster` for why.
  private func deliver() {
    stateBroadcaster.deliverQueued()
    eventBroadcaster.deliverQueued()
  }

  private func shutDown() {
    let aftermath = ledger.withLock { $0.shutDown() }
    aftermath.carryOut()
    stateBroadcaster.finish()
    eventBroadcaster.finish()
  }
}

extension ViewModel {
  /// One live work: running, or waiting in a queue for its turn.
  private struct Entry {
    enum Phase {
      case running(Task<Void, Never>)
      /// Starts once every work in `after` has ended.
      case queued(after: Set<Int>, ActionPlan<F>.Work)
    }

    let lane: String
    var phase: Phase
  }

  /// A caller of ``sendAndWait(_:)`` and the work it still waits for.
  private struct Waiter {
    var pending: Set<Int>
    let continuation: CheckedContinuation<Void, Never>
  }

  /// What to do once the lock is released.
  ///
  /// Cancelling a Task runs its cancellation handlers synchronously, and those may call back into
  /// the view model (an operation's `onCancel`, a nested `sendAndWait`): under the lock, which is
  /// not reentrant, that would deadlock. Resuming a continuation takes a runtime lock of the
  /// resumed Task that its cancellation holds while running handlers, one of which
  /// (`sendAndWait`'s) takes this lock: resuming under it could deadlock too.
  private struct Aftermath {
    var tasksToCancel: [Task<Void, Never>] = []
    var waitersToResume: [CheckedContinuation<Void, Never>] = []

    func carryOut() {
      for task in tasksToCancel { task.cancel() }
      for waiter in waitersToResume { waiter.resume() }
    }
  }

  /// The bookkeeping of live work, only touched under the view model's lock.
  private struct Ledger {
    /// The current state; changed only by `publish(_:in:)`.
    var state: F.State
    var isShutDown = false
    var entries: [Int: Entry] = [:]
    var waiters: [Int: Waiter] = [:]
    private var nextID = 0

    init(state: F.State) {
      self.state = state
    }

    mutating func makeID() -> Int {
      defer { nextID += 1 }
      return nextID
    }

    func isRunning(_ id: Int) -> Bool {
      guard case .running = entries[id]?.phase else { return false }
      return true
    }

    func liveWork(inLane lane: String) -> Set<Int> {
      Set(entries.filter { $0.value.lane == lane }.keys)
    }

    /// Forgets `ids`; returns the queued work that no longer waits for anything, in send order.
    mutating func end(
      _ ids: Set<Int>,
      cancelling: Bool,
      _ aftermath: inout Aftermath
    ) -> [(Int, ActionPlan<F>.Work)] {
      guard !ids.isEmpty else { return [] }
      for id in ids {
        guard let entry = entries.removeValue(forKey: id) else { continue }
        if cancelling, case .running(let task) = entry.phase { aftermath.tasksToCancel.append(task) }
      }
      for (id, var waiter) in waiters {
        waiter.pending.subtract(ids)
        if waiter.pending.isEmpty {
          waiters.removeValue(forKey: id)
          aftermath.waitersToResume.append(waiter.continuation)
        } else {
          waiters[id] = waiter
        }
      }
      var ready: [(Int, ActionPlan<F>.Work)] = []
      for (id, entry) in entries {
        guard case .queued(var after, let work) = entry.phase, !after.isDisjoint(with: ids) else { continue }
        after.subtract(ids)
        if after.isEmpty {
          ready.append((id, work))
        } else {
          entries[id]?.phase = .queued(after: after, work)
        }
      }
      return ready.sorted { $0.0 < $1.0 }
    }

    /// Forgets all work and all waiters, and refuses any more.
    mutating func shutDown() -> Aftermath {
      isShutDown = true
      var aftermath = Aftermath()
      for entry in entries.values {
        if case .running(let task) = entry.phase { aftermath.tasksToCancel.append(task) }
      }
      aftermath.waitersToResume = waiters.values.map(\.continuation)
      entries.removeAll()
      waiters.removeAll()
      return aftermath
    }
  }
}
