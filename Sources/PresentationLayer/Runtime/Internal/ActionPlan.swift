/// What one action does: side effects to apply at once, and async work to schedule.
///
/// A plan is a value; returning one starts nothing. ``ViewModel/send(_:)`` applies the immediate
/// effects synchronously, in order, then schedules each operation according to its
/// ``InFlightPolicy``; the effects planned with work that ``InFlightPolicy/dropWhileBusy(_:)``
/// drops are not applied.
public struct ActionPlan<F: Feature>: Sendable {
  /// Async work and the policy that governs it.
  ///
  /// The policy is kept taken apart, its lane already type-erased: built where the plan is, in
  /// the feature's module and specialised for its lane type, rather than in the view model's
  /// generic code, which would look the lane's metadata up on every action.
  @usableFromInline
  struct Work: Sendable {
    @usableFromInline let lane: WorkLane
    @usableFromInline let mode: InFlightPolicy<F.Lane>.Mode
    /// Whether ``ViewModel/sendAndWait(_:)`` waits for it: false for a watch, which lasts as long
    /// as the screen.
    @usableFromInline let isAwaited: Bool
    @usableFromInline let operation: @Sendable (Effects<F>) async -> Void
    /// Starts ``operation`` in a Task of its own.
    ///
    /// Made here, where the feature's type is known, and stored: the view model's generic code
    /// would make and copy the operation's ``Effects`` through their run-time metadata, two
    /// look-ups on every action. It captures nothing, so storing it allocates nothing.
    @usableFromInline let launch: Launch
    /// Set for work that only cancels: the live work of every lane it matches ends, and nothing
    /// starts.
    @usableFromInline var cancels: (@Sendable (WorkLane) -> Bool)? = nil
    /// Where, in the plan's ``ActionPlan/immediate``, the effects planned with this work are:
    /// ``InFlightPolicy/dropWhileBusy(_:)`` drops them with it.
    @usableFromInline var immediates: Range<Int> = 0..<0

    /// Starts `operation` as the work `id` of `viewModel`, at `priority`.
    @usableFromInline
    typealias Launch =
      @Sendable (
        _ viewModel: ViewModel<F>, _ id: Int, _ priority: TaskPriority,
        _ operation: @escaping @Sendable (Effects<F>) async -> Void
      ) -> Task<Void, Never>

    @inlinable
    init(
      policy: InFlightPolicy<F.Lane>, isAwaited: Bool, immediates: Range<Int> = 0..<0,
      operation: @escaping @Sendable (Effects<F>) async -> Void
    ) {
      lane = WorkLane(policy.lane)
      mode = policy.mode
      self.isAwaited = isAwaited
      self.immediates = immediates
      self.operation = operation
      launch = { viewModel, id, priority, operation in
        let effects = Effects(viewModel: viewModel, workID: id)
        // `Task`, not `Task.detached`: the work carries the sender's task-local values (a trace
        // context, injected dependencies), as a `Task { }` made where the action was sent would.
        // The closure is nonisolated, so it runs on the global executor all the same.
        // Not `Task.immediate`, which runs the operation on the sending thread (a screen's main
        // thread) until it first suspends, and on past that point when its answer is already
        // there: the main thread would decode responses (see the performance article).
        return Task(priority: priority) {
          // Work superseded before its Task got going never starts.
          if !Task.isCancelled { await operation(effects) }
          effects.operationReturned()
        }
      }
    }

    /// Work that only ends the live work of the lanes `lanes` matches.
    init(cancelling lanes: @escaping @Sendable (WorkLane) -> Bool) {
      lane = WorkLane(0)
      mode = .merge
      isAwaited = false
      operation = { _ in }
      launch = { _, _, _, _ in Task {} }
      cancels = lanes
    }
  }

  /// Applied, in this order, while the action is sent.
  @usableFromInline let immediate: [F.SideEffect]

  /// Scheduled, in this order, after ``immediate`` has been applied.
  @usableFromInline let work: [Work]

  /// Whether ``work`` holds any.
  // Read by the view model's generic code before it touches the array: any use of the array there
  // looks `Work`'s metadata up at run time.
  @usableFromInline let hasWork: Bool

  /// Whether some of ``immediate`` was planned with `dropWhileBusy` work, and goes if it is
  /// dropped: the view model then schedules the work before it applies the effects.
  @usableFromInline let hasDroppableEffects: Bool

  // Inlinable, as the factories below are: a feature's module then builds its plans specialised
  // for its own types, instead of looking their metadata up at run time on every send.
  @inlinable
  init(immediate: [F.SideEffect], work: [Work]) {
    self.immediate = immediate
    self.work = work
    hasWork = !work.isEmpty
    hasDroppableEffects = work.contains { $0.mode == .dropWhileBusy && !$0.immediates.isEmpty }
  }

  /// Does nothing: the action changes no state and starts no work.
  @inlinable
  public static var none: Self {
    Self(immediate: [], work: [])
  }

  /// Applies `effects`, in order, while the action is sent, and starts no work.
  @inlinable
  public static func immediate(_ effects: F.SideEffect...) -> Self {
    Self(immediate: effects, work: [])
  }

  /// Applies `immediate` while the action is sent, then runs `operation` as `policy` allows.
  ///
  /// The operation runs off the main actor, in a Task of its own that holds the view model
  /// weakly, and talks back only through the ``Effects`` it is handed. It sees the task-local
  /// values of the task that sent its action, as a `Task { }` made there would. It is cancelled
  /// when its work is superseded or the view model is cancelled or released; from then on its
  /// effects and events are ignored. `immediate` goes with the operation when
  /// ``InFlightPolicy/dropWhileBusy(_:)`` drops it, and applies whatever any other policy does.
  @inlinable
  public static func run(
    _ policy: InFlightPolicy<F.Lane>,
    immediate: [F.SideEffect] = [],
    _ operation: @escaping @Sendable (Effects<F>) async -> Void
  ) -> Self {
    let work = Work(policy: policy, isAwaited: true, immediates: immediate.indices, operation: operation)
    return Self(immediate: immediate, work: [work])
  }

  /// Like ``run(_:immediate:_:)``, for work that lasts as long as the screen, such as watching
  /// the session: ``ViewModel/sendAndWait(_:)`` does not wait for it, so it returns once the
  /// action's other work has ended.
  @inlinable
  public static func watch(
    _ policy: InFlightPolicy<F.Lane>,
    immediate: [F.SideEffect] = [],
    _ operation: @escaping @Sendable (Effects<F>) async -> Void
  ) -> Self {
    let work = Work(policy: policy, isAwaited: false, immediates: immediate.indices, operation: operation)
    return Self(immediate: immediate, work: [work])
  }

  /// Cancels the live work of every lane `lanes` matches, running, queued, held by a throttle or
  /// waiting out a debounce, as ``InFlightPolicy/latest(_:)`` would: a sheet's work when it is
  /// dismissed. Combine it with the action's own plan with ``alongside(_:)``.
  public static func cancel(where lanes: @escaping @Sendable (F.Lane) -> Bool) -> Self {
    let work = Work(cancelling: { lane in (lane.value as? F.Lane).map(lanes) ?? false })
    return Self(immediate: [], work: [work])
  }

  /// Both plans as one: this plan's immediate effects, then `other`'s, then this plan's work
  /// scheduled, then `other`'s, all while the action is sent, exactly as if the two had been sent
  /// one after the other with nothing in between.
  ///
  /// ``ViewModel/sendAndWait(_:)`` waits for the work of both (except watches). The effects
  /// planned with `dropWhileBusy` work go if it is dropped, and only they: the other plan's apply.
  public func alongside(_ other: Self) -> Self {
    let offset = immediate.count
    let shifted = other.work.map { work in
      var work = work
      work.immediates = (work.immediates.lowerBound + offset)..<(work.immediates.upperBound + offset)
      return work
    }
    return Self(immediate: immediate + other.immediate, work: work + shifted)
  }
}
