import DomainLayer
import Foundation
import PresentationLayer

/// A feature whose work follows outcome streams, the path where work reports to the view model
/// without waiting for the main actor.
struct ReportingFeature: Feature {
  enum Action: Sendable {
    /// Follows a stream of these outcomes, all yielded at once.
    case follow([Result<Int, DomainError>])
    /// Follows the outcomes, then reads the state through the work's effects and applies what
    /// it read.
    case followThenRead([Result<Int, DomainError>])
    /// Follows the one outcome of request `"load <n>"` to ``backend``, which answers it with `n`
    /// when the test says so, even once cancelled; `latest` wins.
    case load(Int)
    /// Applies the priority its work runs at, as a value.
    case reportPriority
    /// Applies 1 if its work runs on the main queue, 0 if it does not.
    case reportMainQueue
    /// Applies the value of ``SenderValue/current`` its work sees.
    case reportTaskLocal
  }

  enum SideEffect: Sendable {
    case got(Int)
    case failed
    case read(Int?)
  }

  struct State: Sendable, Equatable {
    var values: [Int] = []
    var failures = 0
    var readBack: [Int?] = []
  }

  enum Event: Sendable, Hashable {
    case failed(DomainError)
  }

  enum Lane: Sendable, Hashable {
    case follow
    case load
  }

  /// Answers the `load`s.
  let backend = ScriptedBackend()

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .follow(let outcomes):
      return .run(.merge(.follow)) { effects in await Self.follow(outcomes, with: effects) }
    case .followThenRead(let outcomes):
      return .run(.merge(.follow)) { effects in
        await Self.follow(outcomes, with: effects)
        let last = await effects.state?.values.last
        await effects.apply(.read(last))
      }
    case .reportPriority:
      return .run(.merge(.follow)) { effects in
        await effects.apply(.got(Int(Task.currentPriority.rawValue)))
      }
    case .reportMainQueue:
      return .run(.merge(.follow)) { effects in
        await effects.apply(.got(MainQueue.isCurrent ? 1 : 0))
      }
    case .reportTaskLocal:
      return .run(.merge(.follow)) { effects in
        await effects.apply(.got(SenderValue.current))
      }
    case .load(let value):
      let backend = self.backend
      return .run(.latest(.load)) { effects in
        await effects.follow(
          OutcomeStream<Int, DomainError>.outcome { () async throws(DomainError) -> Int in
            _ = await backend.respond(to: "load \(value)", honouringCancellation: false)
            return value
          },
          onValue: { .apply(.got($0)) },
          onFailure: { .apply(.failed, emitting: .failed($0)) }
        )
        backend.note(.returned("load \(value)"))
      }
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .got(let value): state.values.append(value)
    case .failed: state.failures += 1
    case .read(let value): state.readBack.append(value)
    }
  }

  private static func follow(_ outcomes: [Result<Int, DomainError>], with effects: Effects<Self>) async {
    await effects.follow(
      OutcomeStream<Int, DomainError>.outcomes { sink in
        for outcome in outcomes { sink.yield(outcome) }
      },
      onValue: { .apply(.got($0)) },
      onFailure: { .apply(.failed, emitting: .failed($0)) }
    )
  }
}

/// A task-local value that a test sets around a send.
enum SenderValue {
  @TaskLocal static var current = 0
}

/// Tells whether code runs on the main queue, which runs the main actor's jobs.
///
/// Not `Thread.isMainThread`, which is false on the main actor under the Linux test runner: the
/// queue is marked with a key of its own, and the key is looked for.
enum MainQueue {
  private static let key = DispatchSpecificKey<Bool>()

  /// Marks the main queue; call on the main actor before asking ``isCurrent``.
  @MainActor
  static func mark() {
    DispatchQueue.main.setSpecific(key: key, value: true)
  }

  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) == true
  }
}
