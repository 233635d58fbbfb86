public import Foundation
public import NetworkLayer

/// A `TokenStore` that keeps the session's tokens in a JSON file, so a person stays signed in
/// across launches.
///
/// Like every store on disk here, it serves reads from memory, writes the file behind the caller
/// (so the auth interceptor, an actor, never waits for an `fsync`) and atomically, with mode 0600,
/// and refuses a link, a FIFO or a file over ``maximumFileSize``; "Stores on disk" in the
/// architecture article has the rules. ``flush()`` waits until every earlier change is on disk:
/// call it before the process exits.
/// - A file that is missing, refused, unreadable or corrupt means signed out, never a trap or a
///   hang, and is deleted so the next launch starts clean.
/// - A write that fails keeps the tokens in memory and reports a ``StorageFailure``, which
///   carries no token, to `onFailure`. Its `description`, `debugDescription` and mirror show no
///   token either.
///
/// The file holds the tokens in clear text, protected by its mode only. On platforms with a
/// keychain, a keychain-backed store is the stronger choice.
///
/// The file belongs to one process: a store reads it once, when created. A second process on the
/// same file (an app extension) keeps what it read, renews with a refresh token the first may
/// have rotated since, and when the server refuses that, its session's end deletes the file.
public final class FileTokenStore: TokenStore {
  /// The largest token file read (64 KiB): a larger one is refused as corrupt, and tokens whose
  /// file would be larger are kept in memory only (reported as a `write` failure, `EFBIG`).
  public static let maximumFileSize = 64 * 1024

  private let storage: PersistedValue<AuthTokens>

  /// Creates the store on the file at `fileURL` (a file URL, or it traps) and loads it now.
  /// `onFailure` hears every refusal, read, decode, write or delete that fails, holding no lock.
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
