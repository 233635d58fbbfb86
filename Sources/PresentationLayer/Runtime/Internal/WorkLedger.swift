/// A view model's live work: which lane each runs in, whether ``ViewModel/sendAndWait(_:)``
/// waits for it, and which work each queued one waits for. The main actor is its only lock.
///
/// Not generic, and not nested in the generic ``ViewModel``, where it would be generic too: code
/// that is not specialised for a feature looks the layout of every generic type it touches up at
/// run time, and this is touched several times per action. Lanes are kept as ``WorkLane``s.
///
/// The entries are an array in id order, not a dictionary: a screen has a handful of live work
/// at most, and a scan of a few entries costs less than hashing an id at every lookup, which
/// happens several times per action.
struct WorkLedger {
  /// One live work: running, queued until every work in `after` has ended, or held until a
  /// throttled lane's interval ends.
  struct Entry {
    enum Phase {
      case running
      case queued(after: [Int])
      case held
    }

    let id: Int
    let lane: WorkLane
    let isAwaited: Bool
    var phase: Phase
  }

  /// In the order the work was added, which is the order of the ids.
  private(set) var entries: [Entry] = []
  /// The id ``makeID()`` makes next.
  private(set) var nextID = 0
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

  /// Whether any awaited work with an id in `ids` is live.
  func isAnyAwaitedLive(in ids: Range<Int>) -> Bool {
    entries.contains { $0.isAwaited && ids.contains($0.id) }
  }

  func isRunning(_ id: Int) -> Bool {
    guard let entry = entries.first(where: { $0.id == id }), case .running = entry.phase else {
      return false
    }
    return true
  }

  /// Records the held work `id` as running; returns whether it was held.
  mutating func release(_ id: Int) -> Bool {
    guard let index = entries.firstIndex(where: { $0.id == id }), case .held = entries[index].phase else {
      return false
    }
    entries[index].phase = .running
    return true
  }

  func liveWork(inLane lane: WorkLane) -> [Int] {
    entries.compactMap { $0.lane == lane ? $0.id : nil }
  }

  /// Forgets the work whose id `isEnding`. Returns how much work that was, the work among it
  /// that was still queued, and the queued work whose turn has come, in the order it was queued,
  /// now recorded as running.
  ///
  /// An id that `isEnding` but is no longer live was taken out of every queued work's `after`
  /// when its work ended, so testing `after` with `isEnding` finds only work ending now.
  mutating func end(where isEnding: (Int) -> Bool) -> (endedCount: Int, unstarted: [Int], ready: [Int]) {
    var endedCount = 0
    var unstarted: [Int] = []
    entries.removeAll { entry in
      guard isEnding(entry.id) else { return false }
      switch entry.phase {
      case .running: break
      case .queued:
        queuedCount -= 1
        unstarted.append(entry.id)
      case .held:
        unstarted.append(entry.id)
      }
      endedCount += 1
      return true
    }
    guard queuedCount > 0, endedCount > 0 else { return (endedCount, unstarted, []) }
    var ready: [Int] = []
    for index in entries.indices {
      guard case .queued(var after) = entries[index].phase else { continue }
      after.removeAll(where: isEnding)
      if after.isEmpty {
        ready.append(entries[index].id)
        entries[index].phase = .running
        queuedCount -= 1
      } else {
        entries[index].phase = .queued(after: after)
      }
    }
    return (endedCount, unstarted, ready)
  }
}
