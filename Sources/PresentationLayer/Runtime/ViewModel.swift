import LayeredSupport

// What a screen and a test call on a view model, and how an action's work is scheduled by its
// policy. The class itself, with the guarantees it makes (its documentation), its storage and the
// path every action takes through it, is declared behind the fence, in
// `Internal/ViewModelCore.swift`; `Internal/README.md` says why.
extension ViewModel {
  /// The current state at once, then its changes, for one observer at its own pace: conflated,
  /// so an observer that falls behind gets the latest state (see ``StateStream``). Any number may
  /// listen; each ends on the final state when the view model is cancelled or released.
  public nonisolated var states: StateStream<F.State> {
    StateStream(stateBroadcaster, owner: WeakDeliverer(self))
  }

  /// The events emitted from now on, for one listener, in order, never conflated and never
  /// replayed. The stream finishes when the view model is cancelled or released.
  public nonisolated var events: AsyncStream<F.Event> {
    eventBroadcaster.stream()
  }

  /// Plans `action`, applies its immediate effects, schedules its work, and returns at once;
  /// ignored once the view model has been cancelled.
  public func send(_ action: F.Action) {
    accept(action)
  }

  /// Sends `action` like ``send(_:)``, then returns once all of its work has ended: when each
  /// operation returns, or the moment its work is dropped, superseded or cancelled (nothing it
  /// does after that reaches the view model). So this returns at once for an action without work
  /// or whose work was dropped, and waits for queued work's turn and completion. Watches
  /// (``ActionPlan/watch(_:immediate:_:)``) are not waited for. Cancelling the waiting task stops
  /// the wait, not the work: the work belongs to the view model.
  public func sendAndWait(_ action: F.Action) async {
    let pending = accept(action)
    // The waiter delivers what work reports itself: one wake-up of the main actor, not two.
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
    closeAllWindows()
    end(where: { _ in true }, cancelling: true)
    stateBroadcaster.finish()
    eventBroadcaster.finish()
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

  /// Plans `action` as if it had been sent, if the work `id` is still running: how a child
  /// feature's event reaches its parent.
  func accept(_ action: F.Action, fromWork id: Int) {
    guard ledger.isRunning(id) else { return }
    accept(action)
  }

  /// The current state, once what work reported earlier is in it.
  func stateAfterReports() -> F.State {
    deliverReports()
    return state
  }

  /// Starts, queues or drops `work` as its policy says.
  func schedule(_ work: ActionPlan<F>.Work) {
    if let cancels = work.cancels {
      let ending = ledger.entries.filter { cancels($0.lane) }.map(\.id)
      closeWindows(where: cancels)
      if !ending.isEmpty { end(where: ending.contains, cancelling: true) }
      return
    }
    let lane = work.lane
    let priority = Task.currentPriority
    let live = ledger.liveWork(inLane: lane)
    let id = ledger.makeID()
    switch work.mode {
    case .merge:
      break
    case .latest, .debounce:
      if !live.isEmpty { end(where: live.contains, cancelling: true) }
    case .dropWhileBusy:
      guard live.isEmpty else { return }
    case .queue where live.isEmpty:
      break
    case .queue:
      enqueue(work, id: id, lane: lane, after: live, priority: priority)
      return
    case .throttle(let interval, let latest):
      guard throttle(work, id: id, lane: lane, interval: interval, latest: latest, priority: priority) else {
        return
      }
    }
    ledger.add(.init(id: id, lane: lane, isAwaited: work.isAwaited, phase: .running))
    if case .debounce(let interval) = work.mode {
      start(id, work, priority: priority, waitingFirst: clock.wait(for: interval))
    } else {
      start(id, work, priority: priority)
    }
  }

  /// Starts `work`'s operation off the main actor, in a Task of its own at `priority` (that of
  /// the task that sent its action, as a `Task { }` there would have), which holds the view model
  /// only weakly (through its ``Effects``). With `wait`, the operation runs only once `wait`
  /// ends: a wait that is cancelled (the work was superseded) never starts it.
  func start(
    _ id: Int, _ work: ActionPlan<F>.Work, priority: TaskPriority,
    waitingFirst wait: (@Sendable () async throws -> Void)? = nil
  ) {
    var operation = work.operation
    if let wait {
      let body = operation
      operation = { effects in
        guard (try? await wait()) != nil else { return }
        await body(effects)
      }
    }
    let task = work.launch(self, id, priority, operation)
    runningTasks.withLock { $0.append(RunningTask(id: id, task: task)) }
  }
}
