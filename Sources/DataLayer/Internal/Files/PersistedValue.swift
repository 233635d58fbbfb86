import DomainLayer
import Foundation
import LayeredSupport

/// A value kept in memory and mirrored to a file: the mechanism behind ``FileTokenStore`` and
/// ``FileTodoCache``.
///
/// - Reads are served from memory; the file is read once, in the initialiser, on the file's
///   ``FileLane``, after any write to the same path that this process has pending, so a new
///   value on a path sees what an earlier one saved there.
/// - Changes are applied to memory at once, under a lock (``update(_:)`` reads and changes in
///   one step, so concurrent changes cannot lose one another), and written behind: the caller
///   never waits for the disk. The write runs on the file's lane, outside the lock, and writes
///   whatever memory holds when it runs, so a burst of changes costs one or two writes, not one
///   each, and the file ends as the last change left memory (a clear after a save leaves no
///   file). ``flush()`` waits until every change made before it is on disk (or has failed).
/// - A file that cannot be read or decoded, or that ``AtomicFile`` refuses (a link, not a
///   regular file, too large), counts as no value and is deleted, so the next launch starts
///   clean. Nothing traps; every failure goes to `onFailure` as a ``StorageFailure``, which
///   never carries the value (encoder and decoder errors are dropped: they may quote it).
final class PersistedValue<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    // Numbers every change; the lane writes only when memory is newer than what it last wrote.
    var generation: UInt64 = 0
    var writtenGeneration: UInt64 = 0
  }

  let file: AtomicFile
  private let lane: FileLane
  private let state: Locked<State>
  /// How many times the value was cleared. Taken before `state`'s lock by every clear and every
  /// conditional update, so neither comes between the other's check and its write.
  private let clears = Locked(0)
  private let encode: @Sendable (Value) throws -> Data
  private let onFailure: @Sendable (StorageFailure) -> Void

  /// Loads the value from `fileURL` now; `decode` may throw to reject what the file holds.
  /// Failures of the load are reported to `onFailure` on the caller's thread, before returning.
  init(
    fileURL: URL,
    sizeLimit: Int,
    encode: @escaping @Sendable (Value) throws -> Data,
    decode: @Sendable (Data) throws -> Value,
    onFailure: @escaping @Sendable (StorageFailure) -> Void
  ) {
    file = AtomicFile(url: fileURL, sizeLimit: sizeLimit)
    lane = FileLane.lane(for: file.path)
    self.encode = encode
    self.onFailure = onFailure
    let file = file
    let (value, failures) = lane.sync { Self.load(from: file, decode: decode) }
    state = Locked(State(value: value))
    // Reported off the lane: a report that made another store on this path would wait for it.
    for failure in failures { onFailure(failure) }
  }

  var value: Value? { state.withLock { $0.value } }

  /// Replaces the value (`nil` deletes the file).
  func set(_ value: Value?) {
    update { $0 = value }
  }

  /// Reads and changes the value in one step: no other change can come in between. `change`
  /// runs holding the lock, so it must not use this value.
  func update(_ change: (inout Value?) -> Void) {
    state.withLock { state in
      change(&state.value)
      state.generation += 1
    }
    lane.async { [self] in writeLatest() }
  }

  /// Forgets the value (deleting the file) and counts one more clear.
  func clear() {
    clears.withLock { count in
      count += 1
      set(nil)
    }
  }

  /// How many times ``clear()`` has run.
  var generation: Int { clears.withLock { $0 } }

  /// Does what ``update(_:)`` does, unless ``clear()`` ran after `generation` was read.
  func update(unlessClearedSince generation: Int, _ change: (inout Value?) -> Void) {
    clears.withLock { count in
      if count == generation { update(change) }
    }
  }

  /// Returns once every change made before the call has been written (or has failed).
  func flush() async {
    await lane.drained()
  }

  private func writeLatest() {
    // `nil`: nothing newer than the last write; `.some(nil)`: the value was cleared.
    let pending: Value?? = state.withLock { state in
      guard state.generation > state.writtenGeneration else { return nil }
      state.writtenGeneration = state.generation
      return .some(state.value)
    }
    guard let pending else { return }
    do throws(StorageFailure) {
      if let value = pending {
        try file.replace(with: encoded(value))
      } else {
        try file.remove()
      }
    } catch {
      onFailure(error)
    }
  }

  private func encoded(_ value: Value) throws(StorageFailure) -> Data {
    do {
      return try encode(value)
    } catch {
      throw StorageFailure(.encode, path: file.path)
    }
  }

  private static func load(
    from file: AtomicFile,
    decode: @Sendable (Data) throws -> Value
  ) -> (Value?, [StorageFailure]) {
    var failures: [StorageFailure] = []
    do throws(StorageFailure) {
      guard let data = try file.contents() else { return (nil, []) }
      do {
        return (try decode(data), [])
      } catch {
        throw StorageFailure(.decode, path: file.path)
      }
    } catch {
      failures.append(error)
    }
    do throws(StorageFailure) {
      try file.remove()
    } catch {
      failures.append(error)
    }
    return (nil, failures)
  }
}
