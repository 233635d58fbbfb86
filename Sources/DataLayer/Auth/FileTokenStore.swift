import DomainLayer
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
  private struct State {
    var tokens: AuthTokens?
    // Handed out with each change, so the file never ends older than `tokens`.
    var generation: UInt64 = 0
  }

  private let file: AtomicFile
  private let state: Locked<State>
  private let onFailure: @Sendable (StorageFailure) -> Void

  /// Creates the store on the file at `fileURL` and loads it now.
  ///
  /// `fileURL` must be a file URL; anything else is a programming error and traps.
  ///
  /// - Parameter onFailure: told about every read, decode, write or delete that fails; called
  ///   synchronously by the failing call, holding no lock, so it may read this store.
  public init(fileURL: URL, onFailure: @escaping @Sendable (StorageFailure) -> Void = { _ in }) {
    file = AtomicFile(url: fileURL)
    self.onFailure = onFailure
    state = Locked(State(tokens: Self.loadTokens(from: file, onFailure: onFailure)))
  }

  public var tokens: AuthTokens? { state.withLock { $0.tokens } }

  public func save(_ tokens: AuthTokens) {
    let generation = state.withLock { state in
      state.tokens = tokens
      state.generation += 1
      return state.generation
    }
    // Encoding and writing happen outside the lock, so reads never wait for the disk.
    do throws(StorageFailure) {
      try file.replace(with: Self.encode(tokens, path: file.path), generation: generation)
    } catch {
      onFailure(error)
    }
  }

  public func clear() {
    let generation = state.withLock { state in
      state.tokens = nil
      state.generation += 1
      return state.generation
    }
    do throws(StorageFailure) {
      try file.replace(with: nil, generation: generation)
    } catch {
      onFailure(error)
    }
  }

  private static func encode(_ tokens: AuthTokens, path: String) throws(StorageFailure) -> Data {
    do {
      return try JSONEncoder().encode(tokens)
    } catch {
      // The encoder's error is dropped on purpose: it may describe the value.
      throw StorageFailure(.encode, path: path)
    }
  }

  private static func loadTokens(
    from file: AtomicFile, onFailure: @Sendable (StorageFailure) -> Void
  ) -> AuthTokens? {
    do throws(StorageFailure) {
      guard let data = try file.contents() else { return nil }
      do {
        return try JSONDecoder().decode(AuthTokens.self, from: data)
      } catch {
        // The decoder's error is dropped on purpose: it may quote the file's contents.
        throw StorageFailure(.decode, path: file.path)
      }
    } catch {
      onFailure(error)
    }
    // Whatever is in the file will never be read: delete it so the next launch starts clean.
    do throws(StorageFailure) {
      try file.discard()
    } catch {
      onFailure(error)
    }
    return nil
  }
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
