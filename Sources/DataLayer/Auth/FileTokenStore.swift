public import Foundation
public import NetworkLayer

/// A `TokenStore` that keeps the session's tokens in a JSON file, so a person stays signed in
/// across launches.
///
/// - Reads are served from an in-memory copy (the protocol's methods must be fast); the file is
///   read once, in the initialiser (after any write this process still has pending on the same
///   path, so a new store sees what an earlier one saved).
/// - ``save(_:)`` and ``clear()`` change memory at once (``tokens`` returns the new value
///   immediately) and never wait for the disk: the file is written behind, on a private serial
///   queue that is not the Swift concurrency pool, so the refresh coordinator's actor never waits
///   for an `fsync`. The file ends as the last call left memory (a clear after a save leaves no
///   file); a burst of calls is written once or twice, not once each. ``flush()`` waits until
///   every call made before it is on disk; call it before the process exits.
/// - Each write replaces the whole file atomically (a new file, synced, renamed over the old
///   one), readable and writable by its owner only (mode 0600), in a directory created with
///   mode 0700 if missing. ``clear()`` deletes the file.
/// - The file is opened without following a symbolic link and without blocking, and only a
///   regular file of at most ``maximumFileSize`` bytes is read. A link (even to a good file,
///   which is left untouched), a FIFO, a device, a directory, a larger file, or a directory for
///   the file that is a link is refused and handled like a corrupt file.
/// - A file that is missing, refused, unreadable, corrupt or of another shape means signed out,
///   never a trap or a hang; such a file (a link itself, never its target) is deleted so the next
///   launch starts clean.
/// - A write that fails keeps the tokens in memory for this process and reports a
///   ``StorageFailure`` to `onFailure`. Failures carry no token.
/// - Its `description`, `debugDescription` and mirror (so `dump`) show no token.
/// - Safe to use from any number of tasks at once.
///
/// The file holds the tokens in clear text, protected by its mode only. On platforms with a
/// keychain, a keychain-backed store is the stronger choice.
public final class FileTokenStore: TokenStore {
  /// The largest token file read (64 KiB): a larger one is refused as corrupt, and tokens whose
  /// file would be larger are kept in memory only (reported as a `write` failure, `EFBIG`).
  public static let maximumFileSize = 64 * 1024

  private let storage: PersistedValue<AuthTokens>

  /// Creates the store on the file at `fileURL` and loads it now.
  ///
  /// `fileURL` must be a file URL; anything else is a programming error and traps.
  ///
  /// - Parameters:
  ///   - fileURL: where the tokens are kept.
  ///   - onFailure: told about every refusal, read, decode, write or delete that fails,
  ///     holding no lock, so it may use this store. Failures of the initial load are reported by
  ///     the initialiser before it returns; those of writes on the store's private queue.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    storage = PersistedValue(
      fileURL: fileURL,
      sizeLimit: Self.maximumFileSize,
      encode: { try JSONEncoder().encode($0) },
      decode: { try JSONDecoder().decode(AuthTokens.self, from: $0) },
      onFailure: onFailure
    )
  }

  /// The tokens last saved, or `nil` when signed out; never waits for the disk.
  public var tokens: AuthTokens? { storage.value }

  /// Replaces the tokens at once (``tokens`` returns them immediately); the file follows behind.
  ///
  /// - Parameter tokens: the tokens of a login or a refresh.
  public func save(_ tokens: AuthTokens) { storage.set(tokens) }

  /// Forgets the tokens at once (``tokens`` returns `nil` immediately); the file is deleted
  /// behind.
  public func clear() { storage.set(nil) }

  /// Returns once every ``save(_:)`` and ``clear()`` made before the call is on disk, or has
  /// been reported as a failure.
  public func flush() async { await storage.flush() }

  private var file: AtomicFile { storage.file }
}

extension FileTokenStore: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The file and whether tokens are held; never the tokens.
  public var description: String {
    "FileTokenStore(path: \(file.path), tokens: \(tokens == nil ? "none" : Redactor.placeholder))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// The file and whether tokens are held, so `dump` and debuggers cannot reach the tokens.
  public var customMirror: Mirror {
    Mirror(self, children: ["path": file.path, "isSignedIn": tokens != nil], displayStyle: .class)
  }
}
