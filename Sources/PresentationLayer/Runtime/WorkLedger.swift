/// A view model's live work, by id: which lane each runs in, whether ``ViewModel/sendAndWait(_:)``
/// waits for it, and which work each queued one waits for. The main actor is its only lock.
///
/// Not generic, and not nested in the generic ``ViewModel``, where it would be generic too: code
/// that is not specialised for a feature looks the layout of every generic type it touches up at
/// run time, and this is touched several times per action. Lanes are kept as `AnyHashable`.
struct WorkLedger {
  /// One live work: running, or queued until every work in `after` has ended.
  struct Entry {
    enum Phase {
      case running
      case queued(after: Set<Int>)
    }

    let lane: AnyHashable
    let isAwaited: Bool
    var phase: Phase
  }

  private(set) var entries: [Int: Entry] = [:]
  private var nextID = 0
  /// How many entries are queued, so that ending work skips looking for queued work when
  /// there is none.
  private var queuedCount = 0

  /// A new id, for work or for anything else that needs one unique to the view model.
  mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  mutating func add(_ id: Int, _ entry: Entry) {
    if case .queued = entry.phase { queuedCount += 1 }
    entries[id] = entry
  }

  func isLive(_ id: Int) -> Bool {
    entries[id] != nil
  }

  func isRunning(_ id: Int) -> Bool {
    guard case .running = entries[id]?.phase else { return false }
    return true
  }

  func liveWork(inLane lane: AnyHashable) -> Set<Int> {
    var ids: Set<Int> = []
    for (id, entry) in entries where entry.lane == lane { ids.insert(id) }
    return ids
  }

  /// Forgets the work `ids`. Returns those that were live, those of them that were still
  /// queued, and the queued work whose turn has come, in the order it was queued, now recorded as
  /// running.
  mutating func end(_ ids: Set<Int>) -> (ended: Set<Int>, unstarted: [Int], ready: [Int]) {
    var ended: Set<Int> = []
    var unstarted: [Int] = []
    for id in ids {
      guard let entry = entries.removeValue(forKey: id) else { continue }
      if case .queued = entry.phase {
        queuedCount -= 1
        unstarted.append(id)
      }
      ended.insert(id)
    }
    guard queuedCount > 0, !ended.isEmpty else { return (ended, unstarted, []) }
    var ready: [Int] = []
    for (id, entry) in entries {
      guard case .queued(var after) = entry.phase, !after.isDisjoint(with: ended) else { continue }
      after.subtract(ended)
      if after.isEmpty {
        ready.append(id)
        entries[id]?.phase = .running
        queuedCount -= 1
      } else {
        entries[id]?.phase = .queued(after: after)
      }
    }
    return (ended, unstarted, ready.sorted())
  }
}
