import LayeredSupport

/// The injected delays in progress, which `POST /_control/release` ends at once.
///
/// A delay is in progress from ``begin()``, which the API calls as it counts the request, so a
/// release sent after a test saw the request counted always finds it. It ends at the first of
/// three things: its time runs out, a release, or the request that waits in it is cancelled. A
/// release ends only the delays already in progress; one that begins afterwards waits its full
/// time, as in the Python twin.
final class InjectedDelays: Sendable {
  /// One delay, begun and not yet waited out.
  struct Ticket: Sendable {
    fileprivate let id: UInt64
  }

  private enum Entry {
    /// Begun; its continuation is not stored yet.
    case starting
    case waiting(CheckedContinuation<Void, Never>)
    /// Ended while `starting`: the continuation resumes as soon as it arrives.
    case ended
  }

  private struct Entries {
    var lastID: UInt64 = 0
    var byID: [UInt64: Entry] = [:]
  }

  private let entries = Locked(Entries())

  /// Puts a delay in progress, for ``wait(_:seconds:)`` to wait out.
  func begin() -> Ticket {
    entries.withLock { entries in
      entries.lastID += 1
      entries.byID[entries.lastID] = .starting
      return Ticket(id: entries.lastID)
    }
  }

  /// Waits `seconds` from now, or less if released; `false` if the waiting task was cancelled.
  func wait(_ ticket: Ticket, seconds: Double) async -> Bool {
    let id = ticket.id
    let timer = Task { [self] in
      // A release or a cancellation cancels this sleep, which then ends nothing: the entry is gone.
      // Capped at a year: a `Duration` made from a larger number of seconds, or a sleep that
      // long, traps, and the fault's `delay` is any non-negative number.
      try? await Task.sleep(for: .seconds(min(seconds, 365 * 24 * 3600)))
      end(id)
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let endedWhileStarting = entries.withLock { entries in
          guard case .ended? = entries.byID[id] else {
            entries.byID[id] = .waiting(continuation)
            return false
          }
          entries.byID[id] = nil
          return true
        }
        if endedWhileStarting { continuation.resume() }
      }
    } onCancel: {
      end(id)
    }
    timer.cancel()
    return !Task.isCancelled
  }

  /// Ends every delay in progress now and returns how many there were.
  func releaseAll() -> Int {
    let (count, continuations) = entries.withLock { entries in
      var count = 0
      var continuations: [CheckedContinuation<Void, Never>] = []
      for (id, entry) in entries.byID {
        switch entry {
        case .starting:
          entries.byID[id] = .ended
          count += 1
        case .waiting(let continuation):
          entries.byID[id] = nil
          continuations.append(continuation)
          count += 1
        case .ended:
          continue
        }
      }
      return (count, continuations)
    }
    for continuation in continuations { continuation.resume() }
    return count
  }

  private func end(_ id: UInt64) {
    let continuation = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
      switch entries.byID[id] {
      case .starting?:
        entries.byID[id] = .ended
        return nil
      case .waiting(let continuation)?:
        entries.byID[id] = nil
        return continuation
      case .ended?, nil:
        return nil
      }
    }
    continuation?.resume()
  }
}
