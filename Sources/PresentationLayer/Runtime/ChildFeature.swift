/// A feature that runs inside another: a filter bar in a list screen, an editor shown as a sheet.
///
/// The parent holds the child's state in its own (`nil` while a sheet is not shown), wraps the
/// child's actions and side effects in cases of its own, and gives each child lane a lane of its
/// own. The child's work then runs under the parent's view model, in the parent's lanes, and what
/// it applies is folded in by the parent's reducer, which hands it to the child's. The child knows
/// nothing of the parent: what it has to say, it emits as an event, which the parent takes as an
/// action of its own. As for any work, no outcome of the child's can stop the parent's input.
///
/// `lane` wraps each child lane in a case of the parent's `Lane` (`Lane.editor`). To cancel the
/// child's work, ``cancel()`` and the child's own ``ActionPlan/cancel(where:)`` read the child
/// lane back out of that case, so a `lane` that does not wrap it (`{ _ in .editor }`) is refused
/// by an assertion the first time the child's work is planned.
///
/// ```swift
/// let editor = ChildFeature(
///   EditorFeature(save: save), state: { $0.editor }, action: Action.editor,
///   sideEffect: SideEffect.editor, lane: Lane.editor, event: { .editorFinished($0) })
/// // plan:   case .editor(let action): return editor.plan(for: action, in: state)
/// //         case .dismissTapped: return ActionPlan.immediate(.dismissed).alongside(editor.cancel())
/// // reduce: case .editor(let effect): EditorFeature.reduce(&state.editor, effect)
/// ```
public struct ChildFeature<Parent: Feature, Child: Feature>: Sendable {
  /// The child's logic.
  public let feature: Child
  let state: @Sendable (Parent.State) -> Child.State?
  let action: @Sendable (Child.Action) -> Parent.Action
  let sideEffect: @Sendable (Child.SideEffect) -> Parent.SideEffect
  let lane: @Sendable (Child.Lane) -> Parent.Lane
  let event: @Sendable (Child.Event) -> Parent.Action?

  /// Embeds `feature`: `state` finds its state in the parent's (`nil` while it is not shown),
  /// `action`, `sideEffect` and `lane` wrap its own in the parent's, and `event` turns what it
  /// emits into an action of the parent's, or drops it.
  public init(
    _ feature: Child,
    state: @escaping @Sendable (Parent.State) -> Child.State?,
    action: @escaping @Sendable (Child.Action) -> Parent.Action,
    sideEffect: @escaping @Sendable (Child.SideEffect) -> Parent.SideEffect,
    lane: @escaping @Sendable (Child.Lane) -> Parent.Lane,
    event: @escaping @Sendable (Child.Event) -> Parent.Action? = { _ in nil }
  ) {
    self.feature = feature
    self.state = state
    self.action = action
    self.sideEffect = sideEffect
    self.lane = lane
    self.event = event
  }

  /// The child's plan for `action`, as the parent's: its side effects wrapped, its work in the
  /// parent's lanes under the same policies, and what it cancels cancelled in those lanes.
  /// Nothing while the child is not shown.
  public func plan(for action: Child.Action, in state: Parent.State) -> ActionPlan<Parent> {
    guard let current = self.state(state) else { return .none }
    let plan = feature.plan(for: action, in: current)
    var work: [ActionPlan<Parent>.Work] = []
    for childWork in plan.work {
      if let cancels = childWork.cancels {
        work += ActionPlan.cancel { self.childLane(in: $0).map { cancels(WorkLane($0)) } ?? false }.work
        continue
      }
      guard let childLane = childWork.lane.value as? Child.Lane else { continue }
      assert(
        self.childLane(in: lane(childLane)) == childLane,
        "ChildFeature: `lane` must wrap each child lane in a case of the parent's Lane")
      let operation = childWork.operation
      let policy = InFlightPolicy(lane: lane(childLane), mode: childWork.mode.carried())
      work.append(
        .init(policy: policy, isAwaited: childWork.isAwaited, immediates: childWork.immediates) { effects in
          await operation(Effects(child: self, of: effects))
        })
    }
    return ActionPlan(immediate: plan.immediate.map(sideEffect), work: work)
  }

  /// Cancels all the child's live work, running, queued or waiting, as dismissing its sheet must.
  /// Combine it with the parent's own plan with ``ActionPlan/alongside(_:)``.
  public func cancel() -> ActionPlan<Parent> {
    .cancel { self.childLane(in: $0) != nil }
  }

  /// The child lane that `parentLane` wraps, if this child's work runs in it: the payload of its
  /// case, when wrapping that payload again gives `parentLane` back.
  private func childLane(in parentLane: Parent.Lane) -> Child.Lane? {
    guard let wrapped = Mirror(reflecting: parentLane).children.first?.value as? Child.Lane,
      lane(wrapped) == parentLane
    else { return nil }
    return wrapped
  }

  /// `reaction` as the parent applies it: its side effects wrapped, its event as an action.
  func reaction(_ reaction: Reaction<Child>) -> Reaction<Parent> {
    Reaction(
      effect: sideEffect(reaction.effect), event: nil,
      action: reaction.action.map(action) ?? reaction.event.flatMap(event),
      emitsOnlyOnChange: reaction.emitsOnlyOnChange, followUps: reaction.followUps.map(self.reaction))
  }
}

extension InFlightPolicy.Mode {
  /// The same mode, for another lane type.
  func carried<Other>() -> InFlightPolicy<Other>.Mode {
    switch self {
    case .merge: .merge
    case .latest: .latest
    case .dropWhileBusy: .dropWhileBusy
    case .queue: .queue
    case .debounce(let interval): .debounce(interval)
    case .throttle(let interval, let latest): .throttle(interval, latest: latest)
    }
  }
}

/// How a child feature's work reaches its parent's view model: through the parent's effects.
final class ParentLink<F: Feature>: Sendable {
  let react: @MainActor @Sendable (Reaction<F>) -> Bool
  let report: @Sendable (Reaction<F>) -> Void
  let send: @MainActor @Sendable (F.Action) -> Void
  let emit: @MainActor @Sendable (F.Event) -> Void
  let state: @MainActor @Sendable () -> F.State?
  let clock: any Clock<Duration>

  init<Parent: Feature>(child: ChildFeature<Parent, F>, of parent: Effects<Parent>) {
    clock = parent.clock
    react = { parent.react(child.reaction($0)) }
    report = { parent.report(child.reaction($0)) }
    send = { parent.send(child.action($0)) }
    emit = { event in if let action = child.event(event) { parent.send(action) } }
    state = { parent.state.flatMap(child.state) }
  }
}

extension Effects {
  /// The effects of a child's work that runs as the work of `parent`.
  init<Parent: Feature>(child: ChildFeature<Parent, F>, of parent: Effects<Parent>) {
    viewModel = nil
    workID = parent.workID
    self.parent = ParentLink(child: child, of: parent)
  }
}
