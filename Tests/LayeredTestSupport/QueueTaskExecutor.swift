import Dispatch

/// A task executor that runs the jobs of the tasks preferring it on a dispatch queue of its own,
/// as a server's event loop or an app's own executor would.
///
/// Under such a preference, a call from one of the main actor's functions to another can
/// suspend the task: tests use it to prove that no wait of the view model relies on the main
/// actor never letting anything in between a look at a value and the wait for the next.
package final class QueueTaskExecutor: TaskExecutor {
  /// One executor for every test: a preference only names it, so nothing is shared but a queue.
  package static let shared = QueueTaskExecutor()

  private let queue = DispatchQueue(label: "QueueTaskExecutor", attributes: .concurrent)

  private init() {}

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: QueueTaskExecutor.shared.asUnownedTaskExecutor()) }
  }
}
