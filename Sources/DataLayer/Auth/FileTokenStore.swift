public import Foundation
public import NetworkLayer

/// A ``TokenStore`` that keeps the session's tokens in a JSON file, so a person stays signed in
/// across launches.
///
/// - Reads are served from an in-memory copy (the protocol's methods must be fast); the file is
///   read once, in the initialiser.
/// - Each ``save(_:)`` replaces the whole file atomically (a new file, synced, renamed over the
///   old one), readable and writable by its owner only (mode 0600), in a directory created with
///   mode 0700 if missing. ``clear()`` deletes the file.
/// - A file that is missing, unreadable, corrupt or of another shape means signed out, never a
///   trap; such a file is deleted so the next launch starts clean.
/// - A save that cannot be written keeps the tokens in memory for this process and reports a
///   ``StorageFailure`` to `onFailure`. Failures carry no token.
/// - Its `description`, `debugDescription` and mirror show no token.
/// - Safe to use from any number of tasks at once.
///
/// The file holds the tokens in clear text, protected by its mode only. On platforms with a
/// keychain, a keychain-backed store is the stronger choice.
public final class FileTokenStore: TokenStore {
  private let storage: PersistedValue<AuthTokens>

  /// Creates the store on the file at `fileURL` and loads it now.
  ///
  /// `fileURL` must be a file URL; anything else is a programming error and traps.
  ///
  /// - Parameter onFailure: told about every read, decode, write or delete that fails; called
  ///   synchronously by the failing call, holding no lock, so it may read this store.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    storage = PersistedValue(
      fileURL: fileURL,
      encode: { try JSONEncoder().encode($0) },
      decode: { try JSONDecoder().decode(AuthTokens.self, from: $0) },
      onFailure: onFailure
    )
  }

  public var tokens: AuthTokens? { storage.value }

  public func save(_ tokens: AuthTokens) { storage.set(tokens) }

  public func clear() { storage.set(nil) }

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
