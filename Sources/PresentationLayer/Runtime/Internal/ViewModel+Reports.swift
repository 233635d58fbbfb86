import LayeredSupport

// How work reports back to its view model without waiting for the main actor, and how a caller of
// `sendAndWait(_:)` waits for it (see `Internal/README.md`).
extension ViewModel {
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

  /// Suspends a caller of ``sendAndWait(_:)`` until work posts a report (which it then
  /// delivers), work ends on the main actor, or its Task is cancelled; returns at once if a
  /// report is already waiting or none of the work `pending` is live.
  // The waiter is resumed the way every continuation is: on the global executor, from which it
  // hops to the main actor, one pool thread woken on the way. A task-executor preference whose
  // executor runs the resumption on the main queue would spare that thread, but the preference
  // then differs from the executor the task runs under at both edges of its scope, and each edge
  // costs a hop to the main actor of its own, which costs more than the thread it spares (see the
  // performance article).
  func waitForReports(on pending: Range<Int>) async {
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
  func wakeWaiters() {
    let waiters = mailbox.withLock { mailbox -> [ReportWaiter] in
      // Left alone when empty, as it usually is: emptied, it would give up its storage, which the
      // next waiter would allocate again.
      guard !mailbox.waiters.isEmpty else { return [] }
      defer { mailbox.waiters.removeAll() }
      return mailbox.waiters
    }
    for waiter in waiters { waiter.continuation.resume() }
  }
}

// Not nested in the generic `ViewModel`, where they would be generic too, their layouts looked up
// at run time on every use (see `WorkLedger`).

/// Reports waiting for the main actor, and the callers of ``ViewModel/sendAndWait(_:)`` waiting
/// for them.
struct ReportMailbox {
  /// The reports not yet delivered, from `delivered` on.
  var reports: [WorkReport] = []
  var delivered = 0
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
struct ReportWaiter {
  let id: Int
  let continuation: CheckedContinuation<Void, Never>
  let priority: TaskPriority
}

extension ViewModel: ReportDeliverer {}

/// The Task of a running work, by the work's id.
struct RunningTask {
  let id: Int
  let task: Task<Void, Never>
}

/// Who delivers a report just posted.
enum ReportDelivery {
  /// The delivery already due takes it.
  case due
  /// An observer of the states waiting at the work's priority or above, lent to deliver it, or
  /// else a Task on the main actor, made for it.
  case byObserverOrTask
  /// A waiting caller of ``ViewModel/sendAndWait(_:)``, woken for it.
  case byWaiter(CheckedContinuation<Void, Never>)
}
