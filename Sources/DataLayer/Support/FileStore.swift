public import Foundation

/// A value of the app's own kept in a JSON file, so it outlives the process: a feature's list
/// shown before the network answers, a draft, a setting.
///
/// It keeps the rules of every store on disk here, as ``FileTokenStore`` and ``FileTodoCache``
/// do ("Stores on disk" in the architecture article has them): reads are served from memory; the
/// file is written behind the caller, atomically, with mode 0600; a link, a FIFO or a file over
/// the size limit is refused; ``flush()`` waits until every earlier change is on disk.
/// - A missing file means no value. One that is refused, unreadable or corrupt, or that
///   `Value`'s decoding rejects (an `init(from:)` that throws to keep an invariant), means no
///   value too, and is deleted so the next launch starts clean.
/// - A write that fails keeps the value in memory and reports a ``StorageFailure``, which carries
///   nothing of the value, to `onFailure`.
public final class FileStore<Value: Codable & Sendable>: Sendable {
  /// The largest file read unless told otherwise: 8 MiB, as ``FileTodoCache`` reads.
  public static var defaultMaximumFileSize: Int { 8 * 1024 * 1024 }

  private let storage: PersistedValue<Value>

  /// Creates the store on the file at `fileURL` (a file URL, or it traps) and loads it now. A
  /// file larger than `maximumFileSize` is refused as corrupt, and a value whose file would be
  /// larger is kept in memory only (reported as a `write` failure, `EFBIG`). `onFailure` hears
  /// every refusal, read, decode, write or delete that fails, holding no lock.
  public init(
    fileURL: URL,
    maximumFileSize: Int = defaultMaximumFileSize,
    onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }
  ) {
    storage = PersistedValue(
      fileURL: fileURL,
      sizeLimit: maximumFileSize,
      encode: { try JSONEncoder().encode($0) },
      decode: { try JSONDecoder().decode(Value.self, from: $0) },
      onFailure: onFailure
    )
  }

  /// The value last saved or updated, or `nil` when there is none; never waits for the disk.
  public var value: Value? { storage.value }

  /// Replaces the value at once; the file follows behind.
  public func save(_ value: Value) { storage.set(value) }

  /// Replaces the value with what `change` makes of it (`nil`: none) in one step, so concurrent
  /// updates never lose one another. `change` runs under the lock: it must not use the store.
  public func update(_ change: (Value?) -> Value?) {
    storage.update { $0 = change($0) }
  }

  /// Forgets the value at once; the file is deleted behind.
  public func clear() { storage.clear() }

  /// How many times the store has been cleared: read it before a request whose answer is saved
  /// with ``update(unlessClearedSince:_:)``.
  public var generation: Int { storage.generation }

  /// Does what ``update(_:)`` does, unless the store was cleared after `generation` was read: an
  /// answer that arrives after a sign-out cleared the user's data brings none of it back.
  public func update(unlessClearedSince generation: Int, _ change: (Value?) -> Value?) {
    storage.update(unlessClearedSince: generation) { $0 = change($0) }
  }

  /// Returns once every change made before the call is on disk, or has been reported as a
  /// failure.
  public func flush() async { await storage.flush() }
}
