import DomainLayer
import Foundation
import LayeredSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file that the data layer's stores keep a value in: the only place where they touch the
/// file system.
///
/// - A write goes to a new temporary file in the same directory (mode 0600), is synced to disk,
///   and is renamed over the target, so a reader (or the next launch, after a crash or power
///   loss) sees the old file or the new one, never a partial one. A missing directory is
///   created with mode 0700.
/// - Writes are ordered by a generation the caller hands out together with its in-memory value:
///   once a generation has been written, an older one is dropped instead of written, so
///   concurrent writers cannot leave the file older than the value in memory.
/// - Every failure is a ``StorageFailure``; nothing traps.
final class AtomicFile: Sendable {
  /// The file's path.
  let path: String
  private let url: URL
  // The newest generation written or removed; holding it also serialises the writes.
  private let newestGeneration = Locked<UInt64>(0)

  /// Creates the handle; touches nothing on disk. `url` must be a file URL.
  init(url: URL) {
    precondition(url.isFileURL, "AtomicFile needs a file URL")
    self.url = url.standardizedFileURL
    path = self.url.path(percentEncoded: false)
  }

  /// The file's bytes, or `nil` if there is no file.
  func contents() throws(StorageFailure) -> Data? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      // ENOTDIR: a parent is a regular file, so there is no file here either.
      if code == ENOENT || code == ENOTDIR { return nil }
      throw StorageFailure(.read, path: path, errorNumber: code)
    }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      guard count > 0 else {
        let code = errno
        if code == EINTR { continue }
        throw StorageFailure(.read, path: path, errorNumber: code)
      }
      data.append(contentsOf: buffer[..<count])
    }
  }

  /// Replaces the file with `data`, or deletes it when `data` is `nil`, unless a newer
  /// `generation` has already been written (then this older value is dropped).
  ///
  /// A failed generation still counts as written: an older value must not land after it.
  func replace(with data: Data?, generation: UInt64) throws(StorageFailure) {
    try newestGeneration.withLock { (newest: inout UInt64) throws(StorageFailure) in
      guard generation > newest else { return }
      newest = generation
      if let data {
        try writeAtomically(data)
      } else {
        try unlinkIfPresent()
      }
    }
  }

  /// Deletes the file, if there is one, whatever the generations.
  func discard() throws(StorageFailure) {
    try newestGeneration.withLock { (_: inout UInt64) throws(StorageFailure) in
      try unlinkIfPresent()
    }
  }

  private func writeAtomically(_ data: Data) throws(StorageFailure) {
    let directory = url.deletingLastPathComponent()
    // A dot name keeps the temporary file out of casual listings; the UUID keeps processes that
    // share the directory from colliding.
    let temporaryPath = directory.appendingPathComponent(
      ".\(url.lastPathComponent).\(UUID().uuidString).tmp"
    ).path(percentEncoded: false)
    var descriptor = openNew(temporaryPath)
    // ENOENT: the directory is missing (the common first save); create it and try once more.
    if descriptor < 0, errno == ENOENT {
      try createDirectory(directory)
      descriptor = openNew(temporaryPath)
    }
    guard descriptor >= 0 else { throw StorageFailure(.write, path: path, errorNumber: errno) }
    var renamed = false
    defer {
      if !renamed { unlink(temporaryPath) }
    }
    do throws(StorageFailure) {
      try writeAll(data, to: descriptor)
    } catch {
      close(descriptor)
      throw error
    }
    // A failing close can be the first report of a failed write (on network file systems).
    guard close(descriptor) == 0 else { throw StorageFailure(.write, path: path, errorNumber: errno) }
    guard rename(temporaryPath, path) == 0 else {
      throw StorageFailure(.write, path: path, errorNumber: errno)
    }
    renamed = true
    syncDirectory(directory)
  }

  private func openNew(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
  }

  private func writeAll(_ data: Data, to descriptor: Int32) throws(StorageFailure) {
    // The umask may have taken bits away from the mode given to open; say it exactly.
    guard fchmod(descriptor, 0o600) == 0 else {
      throw StorageFailure(.write, path: path, errorNumber: errno)
    }
    let failure: Int32? = data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let count = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        if count < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += count
      }
      return nil
    }
    if let failure { throw StorageFailure(.write, path: path, errorNumber: failure) }
    guard fsync(descriptor) == 0 else { throw StorageFailure(.write, path: path, errorNumber: errno) }
  }

  // Creates `directory` and any missing parents, each with mode 0700.
  private func createDirectory(_ directory: URL) throws(StorageFailure) {
    let directoryPath = directory.path(percentEncoded: false)
    var failure = makeDirectory(directoryPath)
    let parent = directory.deletingLastPathComponent()
    if failure == ENOENT, parent.path(percentEncoded: false) != directoryPath {
      try createDirectory(parent)
      failure = makeDirectory(directoryPath)
    }
    if let failure { throw StorageFailure(.write, path: path, errorNumber: failure) }
  }

  // `nil` when the directory is there now, else why not (`errno`, read at once, before anything
  // else can change it). Only a directory made here gets its mode set: one that already existed
  // belongs to someone else.
  private func makeDirectory(_ directoryPath: String) -> Int32? {
    guard mkdir(directoryPath, 0o700) == 0 else {
      let failure = errno
      return failure == EEXIST ? nil : failure
    }
    // The umask may have taken bits away from the mode given to mkdir.
    chmod(directoryPath, 0o700)
    return nil
  }

  // Makes the rename itself durable; best effort, as the data is already safe in either file.
  private func syncDirectory(_ directory: URL) {
    let descriptor = open(directory.path(percentEncoded: false), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  private func unlinkIfPresent() throws(StorageFailure) {
    guard unlink(path) == 0 || errno == ENOENT || errno == ENOTDIR else {
      throw StorageFailure(.remove, path: path, errorNumber: errno)
    }
  }
}
