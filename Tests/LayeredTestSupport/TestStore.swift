import LayeredSupport
public import PresentationLayer
public import Testing

/// Runs a `Feature` in a `ViewModel` and makes a test state every change it causes, in order.
///
/// In the spirit of an exhaustive test store: each state change and each event must be asserted,
/// in the order the view model produced them, and the store records an issue for
/// - a state change the test did not assert (after ``send(_:_:sourceLocation:)``, or when the
///   test sends, receives an event or finishes while a change is waiting to be received);
/// - an event the test did not assert, including one that arrives late, after everything the
///   test expected;
/// - an expected change that never comes: it stops waiting once no work is left that could
///   produce it;
/// - work still running when the test ends (``finish(sourceLocation:)``), and a store released
///   without finishing.
///
/// ```swift
/// @Test @MainActor func logsIn() async {
///   let store = TestStore(LoginFeature(logIn: fake), initialState: .init())
///   store.send(.usernameChanged("demo")) { $0.username = "demo" }
///   store.send(.passwordChanged("pw")) { $0.password = "pw" }
///   store.send(.logInTapped) { $0.isLoggingIn = true }
///   await store.receive { $0.isLoggingIn = false; $0.password = "" }
///   await store.receive(event: .loggedIn(user))
///   await store.finish()
/// }
/// ```
///
/// It sees every state, even those the conflated `ViewModel.states` would skip, because it
/// listens to the view model synchronously, on the main actor. Its view model keeps time on
/// ``clock``, which moves only with ``advance(by:)``, so a debounce, a throttle or work that
/// sleeps is tested without waiting. With ``exhaustivity`` set to ``Exhaustivity/off(failsOnUnfinishedWork:)``
/// a test asserts only the states and events it names.
@MainActor
public final class TestStore<F: Feature> where F.Event: Equatable {
  /// How much of what the view model does a test must assert.
  public enum Exhaustivity: Sendable, Equatable {
    /// Every state change and every event, in order: the default.
    case on
    /// Only what the test names. ``send(_:_:sourceLocation:)`` checks that each value its
    /// closure sets is the state's; ``receive(_:sourceLocation:)`` and
    /// ``receive(event:sourceLocation:)`` skip states and events until one matches. Work still
    /// running at ``finish(sourceLocation:)`` is an issue unless `failsOnUnfinishedWork` is false.
    case off(failsOnUnfinishedWork: Bool = true)
  }

  /// How much a test must assert; ``Exhaustivity/on`` unless the test says otherwise. It may
  /// change between steps.
  public var exhaustivity: Exhaustivity

  /// The clock the view model keeps time on: time moves only through ``advance(by:)``.
  public let clock: TestClock

  /// The view model under test, for what the store does not wrap (`ViewModel.states`,
  /// `ViewModel.events`, `ViewModel.cancel()`).
  public let viewModel: ViewModel<F>

  /// The state as the test has asserted it so far.
  public private(set) var state: F.State

  private var outputs: [ViewModelOutput<F>] = []
  private var wakeUp: CheckedContinuation<Void, Never>?
  /// How many outputs the view model has produced, so that a waiter can tell whether one came
  /// after it last looked.
  fileprivate private(set) var activity = 0
  private let timeout: Duration
  private nonisolated let finished = Locked(false)
  private nonisolated let createdAt: SourceLocation

  /// How long a store waits, unless told otherwise, before it calls work hung (see
  /// ``init(_:initialState:exhaustivity:timeout:sourceLocation:)``).
  public static var defaultTimeout: Duration { .seconds(30) }

  /// Starts `feature` from `initialState`.
  ///
  /// - Parameters:
  ///   - feature: the feature under test, built with the test's fakes.
  ///   - initialState: the state the view model starts from.
  ///   - exhaustivity: how much the test must assert.
  ///   - timeout: how long to wait for something that only a watch
  ///     (`ActionPlan.watch(_:immediate:_:)`) could still produce, or for work to end at
  ///     ``finish(sourceLocation:)``. Only a failing test waits that long, so the default is
  ///     generous: when every test of a suite starts at once on a busy machine, the main actor
  ///     can be many seconds behind, and a passing test must not be reported as hung.
  ///   - sourceLocation: where the store was made; a store released without
  ///     ``finish(sourceLocation:)`` reports its issue there.
  public init(
    _ feature: F,
    initialState: F.State,
    exhaustivity: Exhaustivity = .on,
    timeout: Duration = defaultTimeout,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    clock = TestClock()
    viewModel = ViewModel(feature, initialState: initialState, clock: clock)
    self.exhaustivity = exhaustivity
    state = initialState
    self.timeout = timeout
    createdAt = sourceLocation
    viewModel.tap = { [weak self] output in self?.record(output) }
  }

  deinit {
    if !finished.withLock({ $0 }) {
      Issue.record("The TestStore was released without `await store.finish()`", sourceLocation: createdAt)
    }
  }

  /// Sends `action` and checks the state its immediate effects leave: `change` turns the
  /// asserted state into the expected one; without it, the action must not change the state.
  ///
  /// - Returns: the action's work, whose end a test can wait for with ``Work/finish()`` before
  ///   it sends an action that the work would otherwise make a policy drop or queue.
  @discardableResult
  public func send(
    _ action: F.Action,
    _ change: ((inout F.State) -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Work {
    failOnUnreceivedOutputs(before: "sending \(action)", sourceLocation)
    let work = Work(store: self, ids: viewModel.sendTrackingWork(action))
    var actual = state
    if case .state(let changed) = outputs.first {
      outputs.removeFirst()
      actual = changed
    }
    defer { state = actual }
    if exhaustivity != .on {
      var expected = actual
      change?(&expected)
      if expected != actual {
        Issue.record(
          "Sending \(action) left a state other than the one asserted:\n\(Self.compare(expected, actual))",
          sourceLocation: sourceLocation)
      }
      return work
    }
    var expected = state
    change?(&expected)
    if change == nil, actual != state {
      Issue.record(
        "Sending \(action) changed the state, but the test asserted no change:\n\(Self.compare(state, actual))",
        sourceLocation: sourceLocation)
    } else if expected != actual {
      Issue.record(
        "Sending \(action) left a state other than the one asserted:\n\(Self.compare(expected, actual))",
        sourceLocation: sourceLocation)
    }
    return work
  }

  /// Moves ``clock`` forward by `duration`, waking every wait it reaches: a debounce or a
  /// throttle interval, whose deadline was fixed when its action was sent, and work asleep on
  /// `Effects.clock`. Work that begins a wait later waits from then: when work sleeps after
  /// reporting something, `await store.clock.waitForSleepers(count:)` before advancing past it.
  public func advance(by duration: Duration) async {
    clock.advance(by: duration)
    await Task.yield()
  }

  /// The work one sent action started.
  @MainActor
  public struct Work {
    fileprivate let store: TestStore
    fileprivate let ids: Range<Int>

    /// Returns once all of the action's work (except watches) has ended. Its outputs stay
    /// queued for the test to receive.
    public func finish() async {
      while true {
        let seen = store.activity
        guard store.viewModel.isAnyAwaitedLive(in: ids) else { return }
        await store.waitForActivity(after: seen, until: nil)
      }
    }
  }

  /// Waits for the next output, which must be a state change that `change` describes.
  public func receive(
    _ change: (inout F.State) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    if exhaustivity != .on {
      while let output = await nextOutput(expecting: "a state change as asserted", sourceLocation) {
        guard case .state(let actual) = output else { continue }
        state = actual
        var expected = actual
        change(&expected)
        if expected == actual { return }
      }
      return
    }
    guard let output = await nextOutput(expecting: "a state change", sourceLocation) else { return }
    guard case .state(let actual) = output else {
      Issue.record("Expected a state change, but received \(output)", sourceLocation: sourceLocation)
      return
    }
    var expected = state
    change(&expected)
    if expected != actual {
      Issue.record(
        "The state changed, but not as asserted:\n\(Self.compare(expected, actual))",
        sourceLocation: sourceLocation)
    }
    state = actual
  }

  /// Waits for the next output, which must be `event`.
  public func receive(event expected: F.Event, sourceLocation: SourceLocation = #_sourceLocation) async {
    if exhaustivity != .on {
      while let output = await nextOutput(expecting: "event \(expected)", sourceLocation) {
        switch output {
        case .state(let changed): state = changed
        case .event(let actual) where actual == expected: return
        default: continue
        }
      }
      return
    }
    guard let output = await nextOutput(expecting: "event \(expected)", sourceLocation) else { return }
    guard case .event(let actual) = output else {
      Issue.record("Expected event \(expected), but received \(output)", sourceLocation: sourceLocation)
      if case .state(let changed) = output { state = changed }
      return
    }
    if actual != expected {
      Issue.record("Expected event \(expected), but received event \(actual)", sourceLocation: sourceLocation)
    }
  }

  /// Ends the test: waits for the work `ViewModel.sendAndWait(_:)` would wait for to end,
  /// records an issue for any that is still running after the timeout and for every output the
  /// test did not receive, then cancels the view model, which ends its watches.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    let failsOnUnfinishedWork = exhaustivity != .off(failsOnUnfinishedWork: false)
    let deadline = ContinuousClock.now.advanced(by: failsOnUnfinishedWork ? timeout : .zero)
    while true {
      let seen = activity
      guard viewModel.hasAwaitedWork, ContinuousClock.now < deadline else { break }
      await waitForActivity(after: seen, until: deadline)
    }
    if viewModel.hasAwaitedWork, failsOnUnfinishedWork {
      Issue.record("Work was still running when the test ended", sourceLocation: sourceLocation)
    }
    failOnUnreceivedOutputs(before: "finishing", sourceLocation)
    viewModel.cancel()
    finished.withLock { $0 = true }
  }

  // MARK: - Recording

  private func record(_ output: ViewModelOutput<F>) {
    if case .workEnded = output {} else { outputs.append(output) }
    activity += 1
    wakeUp?.resume()
    wakeUp = nil
  }

  private func nextOutput(expecting what: String, _ sourceLocation: SourceLocation) async -> ViewModelOutput<
    F
  >? {
    var deadline: ContinuousClock.Instant?
    while outputs.isEmpty {
      let seen = activity
      guard viewModel.hasLiveWork else {
        Issue.record(
          "Expected \(what), but no work is left that could produce it", sourceLocation: sourceLocation)
        return nil
      }
      if viewModel.hasAwaitedWork {
        await waitForActivity(after: seen, until: nil)
        continue
      }
      let limit = deadline ?? ContinuousClock.now.advanced(by: timeout)
      deadline = limit
      guard ContinuousClock.now < limit else {
        Issue.record(
          "Expected \(what), but only watches are running and none produced it within \(timeout)",
          sourceLocation: sourceLocation)
        return nil
      }
      await waitForActivity(after: seen, until: limit)
    }
    return outputs.removeFirst()
  }

  /// Suspends until the view model produces an output or ends work, or until `deadline`;
  /// returns at once if it has done so since the caller saw `seen` outputs.
  fileprivate func waitForActivity(after seen: Int, until deadline: ContinuousClock.Instant?) async {
    var timer: Task<Void, Never>?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // Looked at again here, not only by the caller: a test task that prefers a task executor
      // of its own can be suspended even by this call, from one of the main actor's functions to
      // another, and an output recorded meanwhile would wake nobody.
      guard activity == seen else { return continuation.resume() }
      wakeUp = continuation
      if let deadline {
        timer = Task { [weak self] in
          try? await Task.sleep(until: deadline)
          self?.wakeUp?.resume()
          self?.wakeUp = nil
        }
      }
    }
    timer?.cancel()
  }

  private func failOnUnreceivedOutputs(before step: String, _ sourceLocation: SourceLocation) {
    guard !outputs.isEmpty else { return }
    if exhaustivity == .on {
      let list = outputs.map { "  - \($0)" }.joined(separator: "\n")
      Issue.record("Received but not asserted before \(step):\n\(list)", sourceLocation: sourceLocation)
    }
    for output in outputs { if case .state(let changed) = output { state = changed } }
    outputs.removeAll()
  }

  private static func compare(_ expected: F.State, _ actual: F.State) -> String {
    "  expected: \(expected)\n  actual:   \(actual)"
  }
}
