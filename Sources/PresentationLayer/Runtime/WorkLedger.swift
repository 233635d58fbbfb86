/// A view model's live work: which lane each runs in, whether ``ViewModel/sendAndWait(_:)``
/// waits for it, and which work each queued one waits for. The main actor is its only lock.
///
/// Not generic, and not nested in the generic ``ViewModel``, where it would be generic too: code
/// that is not specialised for a feature looks the layout of every generic type it touches up at
/// run time, and this is touched several times per action. Lanes are kept as `AnyHashable`.
///
/// The entries are an array in id order, not a dictionary: a screen has a handful of live work
/// at most, and a scan of a few entries costs less than hashing an id at every lookup, which
/// happens several times per action.
struct WorkLedger {
  /// One live work: running, or queued until every work in `after` has ended.
  struct Entry {
    enum Phase {
      case running
      case queued(after: [Int])
    }

    let id: Int
    let lane: AnyHashable
    let isAwaited: Bool
    var phase: Phase
  }

  /// In the order the work was added, which is the order of the ids.
  private(set) var entries: [Entry] = []
  private var nextID = 0
  /// How many entries are queued, so that ending work skips looking for queued work when
  /// there is none.
  private var queuedCount = 0

  /// A new id, for work or for anything else that needs one unique to the view model.
  mutating func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  /// Records `entry`, whose id must be newer than every id recorded so far.
  mutating func add(_ entry: Entry) {
    if case .queued = entry.phase { queuedCount += 1 }
    entries.append(entry)
  }

  func isLive(_ id: Int) -> Bool {
    entries.contains { $0.id == id }
  }

  func isAnyLive(_ ids: [Int]) -> Bool {
    entries.contains { ids.contains($0.id) }
  }

  func isRunning(_ id: Int) -> Bool {
    guard let entry = entries.first(where: { $0.id == id }), case .running = entry.phase else {
      return false
    }
    return true
  }

  func liveWork(inLane lane: AnyHashable) -> [Int] {
    entries.compactMap { $0.lane == lane ? $0.id : nil }
  }

  /// Forgets the work `ids`. Returns those that were live, those of them that were still
  /// queued, and the queued work whose turn has come, in the order it was queued, now recorded as
  /// running.
  mutating func end(_ ids: [Int]) -> (ended: [Int], unstarted: [Int], ready: [Int]) {
    var ended: [Int] = []
    var unstarted: [Int] = []
    entries.removeAll { entry in
      guard ids.contains(entry.id) else { return false }
      if case .queued = entry.phase {
        queuedCount -= 1
        unstarted.append(entry.id)
      }
      ended.append(entry.id)
      return true
    }
    guard queuedCount > 0, !ended.isEmpty else { return (ended, unstarted, []) }
    var ready: [Int] = []
    for index in entries.indices {
      guard case .queued(var after) = entries[index].phase else { continue }
      after.removeAll { ended.contains($0) }
      if after.isEmpty {
        ready.append(entries[index].id)
        entries[index].phase = .running
        queuedCount -= 1
      } else {
        entries[index].phase = .queued(after: after)
      }
    }
    return (ended, unstarted, ready)
  }
}
