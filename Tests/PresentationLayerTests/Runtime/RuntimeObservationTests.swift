import LayeredSupport
import Observation
import PresentationLayer
import Testing

@Suite("ViewModel runtime: Observation", .timeLimit(.minutes(1)))
@MainActor
struct RuntimeObservationTests {
  /// Tracks `viewModel.state` the way SwiftUI does and counts the change notifications.
  private final class Tracker: Sendable {
    let changes = Counter()

    @MainActor
    func track(_ viewModel: ViewModel<CounterFeature>) {
      withObservationTracking {
        _ = viewModel.state
      } onChange: { [changes] in
        changes.increment()
      }
    }
  }

  @Test("withObservationTracking fires when the state changes, and not for an equal state")
  func observationSeesChangesOnly() {
    let viewModel = ViewModel<CounterFeature>()
    let tracker = Tracker()
    tracker.track(viewModel)
    viewModel.send(.set(0))
    #expect(tracker.changes.value == 0, "an equal state is not a change")
    viewModel.send(.set(1))
    #expect(tracker.changes.value == 1)

    tracker.track(viewModel)
    viewModel.send(.increment)
    #expect(tracker.changes.value == 2)
  }

  @Test("the first observer of the state is notified, though the state changed before anyone read it")
  func observationAfterUnreadChanges() {
    let viewModel = ViewModel<CounterFeature>()
    viewModel.send(.set(1))
    viewModel.send(.increment)
    let tracker = Tracker()
    tracker.track(viewModel)
    viewModel.send(.increment)
    #expect(tracker.changes.value == 1)
    #expect(viewModel.state.count == 3)
  }

  @Test("a change applied by work off the main actor notifies an observer too")
  func observationSeesChangesFromWork() async {
    let viewModel = ViewModel<CounterFeature>()
    let tracker = Tracker()
    tracker.track(viewModel)
    await viewModel.sendAndWait(.bump)
    #expect(tracker.changes.value == 1)
    #expect(viewModel.state.count == 1)
  }
}

/// A count that any thread may bump.
final class Counter: Sendable {
  private let count = Locked(0)

  var value: Int { count.withLock { $0 } }

  func increment() {
    count.withLock { $0 += 1 }
  }
}
