import DomainLayer
import Foundation
import LayeredSupport

/// A value kept in memory and mirrored to a file: the mechanism behind ``FileTokenStore`` and
/// ``FileTodoCache``.
///
/// - Reads are served from memory; the file is read once, in the initialiser.
/// - Every change replaces the whole file atomically through ``AtomicFile``, outside the lock, so
///   reads never wait for the disk. Each change is numbered, and a write older than one already
///   written is skipped, so concurrent changes cannot leave the file older than memory.
/// - A file that cannot be read or decoded counts as no value and is deleted, so the next launch
///   starts clean. Nothing traps; every failure goes to `onFailure` as a ``StorageFailure``,
///   which never carries the value (encoder and decoder errors are dropped: they may quote it).
final class PersistedValue<Value: Sendable>: Sendable {
  private struct State {
    var value: Value?
    var generation: UInt64 = 0
  }

  let file: AtomicFile
  private let state: Locked<State>
  private let encode: @Sendable (Value) throws -> Data
  private let onFailure: @Sendable (StorageFailure) -> Void

  /// Loads the value from `fileURL` now; `decode` may throw to reject what the file holds.
  init(
    fileURL: URL,
    encode: @escaping @Sendable (Value) throws -> Data,
    decode: @Sendable (Data) throws -> Value,
    onFailure: @escaping @Sendable (StorageFailure) -> Void
  ) {
    file = AtomicFile(url: fileURL)
    self.encode = encode
    self.onFailure = onFailure
    state = Locked(State(value: Self.load(from: file, decode: decode, onFailure: onFailure)))
  }

  var value: Value? { state.withLock { $0.value } }

  /// Replaces the value (`nil` deletes the file).
  func set(_ value: Value?) {
    let generation = state.withLock { state in
      state.value = value
      state.generation += 1
      return state.generation
    }
    do throws(StorageFailure) {
      try file.replace(with: value.map(encoded), generation: generation)
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
    decode: @Sendable (Data) throws -> Value,
    onFailure: @Sendable (StorageFailure) -> Void
  ) -> Value? {
    do throws(StorageFailure) {
      guard let data = try file.contents() else { return nil }
      do {
        return try decode(data)
      } catch {
        throw StorageFailure(.decode, path: file.path)
      }
    } catch {
      onFailure(error)
    }
    do throws(StorageFailure) {
      try file.discard()
    } catch {
      onFailure(error)
    }
    return nil
  }
}
