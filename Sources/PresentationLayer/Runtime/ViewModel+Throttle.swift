// How a throttled lane holds work until its interval ends (see `InFlightPolicy.throttle`).
extension ViewModel {
  /// A throttled lane whose interval is running: the timer that ends it, and the work it holds.
  struct ThrottleWindow {
    let lane: WorkLane
    let timer: Task<Void, Never>
    var held: Int?
  }

  /// Schedules throttled `work`: returns true when it may start at once, which opens an interval;
  /// otherwise holds it for the end of the interval, or drops it.
  func throttle(
    _ work: ActionPlan<F>.Work, id: Int, lane: WorkLane, interval: Duration, latest: Bool,
    priority: TaskPriority
  ) -> Bool {
    guard let index = throttleWindows.firstIndex(where: { $0.lane == lane }) else {
      openWindow(lane, interval: interval)
      return true
    }
    if let held = throttleWindows[index].held {
      guard latest else { return false }
      end(where: { $0 == held }, cancelling: true)
    }
    ledger.add(.init(id: id, lane: lane, isAwaited: work.isAwaited, phase: .held))
    queuedWork[id] = (work, priority)
    throttleWindows[index].held = id
    return false
  }

  /// Starts an interval of `lane` that ends `interval` from now on the view model's clock.
  private func openWindow(_ lane: WorkLane, interval: Duration) {
    let wait = clock.wait(for: interval)
    let timer = Task { @MainActor [weak self] in
      guard (try? await wait()) != nil else { return }
      self?.closeWindow(of: lane, interval: interval)
    }
    throttleWindows.append(ThrottleWindow(lane: lane, timer: timer, held: nil))
  }

  /// Ends the interval of `lane`: the work it holds, if any, starts now and opens the next one.
  private func closeWindow(of lane: WorkLane, interval: Duration) {
    guard let index = throttleWindows.firstIndex(where: { $0.lane == lane }) else { return }
    let window = throttleWindows.remove(at: index)
    guard let id = window.held, ledger.release(id), let held = queuedWork.removeValue(forKey: id) else {
      return
    }
    openWindow(lane, interval: interval)
    start(id, held.work, priority: held.priority)
  }

  /// Stops every interval, for a view model that is shutting down.
  func closeAllWindows() {
    closeWindows(where: { _ in true })
  }

  /// Stops the intervals of the lanes `lanes` matches, whose work is being cancelled.
  func closeWindows(where lanes: (WorkLane) -> Bool) {
    for window in throttleWindows where lanes(window.lane) { window.timer.cancel() }
    throttleWindows.removeAll { lanes($0.lane) }
  }
}

extension Clock where Duration == Swift.Duration {
  /// A wait that ends `interval` from now: its deadline is fixed here, so a test clock moved
  /// before the wait begins still ends it.
  func wait(for interval: Duration) -> @Sendable () async throws -> Void {
    let deadline = now.advanced(by: interval)
    return { try await self.sleep(until: deadline, tolerance: nil) }
  }
}
