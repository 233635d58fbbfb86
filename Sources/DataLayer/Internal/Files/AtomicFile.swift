import DomainLayer
import Foundation

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
/// - Every call works relative to the file's directory, opened once per call without following
///   a symbolic link. A directory that is a symbolic link is refused (its ancestors may be links,
///   as `/var` and `/tmp` are on Apple platforms), so a link swapped in for the directory cannot
///   send reads or writes elsewhere.
/// - A read never follows a symbolic link and never blocks: the file is opened with
///   `O_NOFOLLOW | O_NONBLOCK`, the opened descriptor is checked to be a regular file, and at
///   most ``sizeLimit`` bytes are read. A link, a FIFO, a device, a directory or a larger file is
///   refused (``StorageFailure/Operation/refuse``) and nothing of it is read; the target of a
///   link is never touched.
/// - A write goes to a new temporary file in the same directory (created exclusively, never
///   through a link, mode 0600), is synced to disk, and is renamed over the target, so a reader
///   (or the next launch, after a crash or power loss) sees the old file or the new one, never a
///   partial one. The rename replaces a link at the path; it never writes through it. A missing
///   directory is created with mode 0700. Data larger than ``sizeLimit`` is not written (it could
///   not be read back); the old file is deleted instead, so it cannot outlive a newer value.
/// - Not synchronised: callers run every call for one path on its ``FileLane``.
/// - Every failure is a ``StorageFailure``; nothing traps.
final class AtomicFile: Sendable {
  /// The file's path.
  let path: String
  /// The most bytes the file may hold; a larger file is refused, larger data is not written.
  let sizeLimit: Int
  private let directoryPath: String
  private let name: String

  /// Creates the handle; touches nothing on disk. `url` must be a file URL naming a file.
  init(url: URL, sizeLimit: Int) {
    precondition(url.isFileURL, "AtomicFile needs a file URL")
    let standardized = url.standardizedFileURL
    path = standardized.path(percentEncoded: false)
    name = standardized.lastPathComponent
    // Without a trailing slash: one would make `open` follow a link in the last component even
    // with O_NOFOLLOW.
    let directory = standardized.deletingLastPathComponent().path(percentEncoded: false)
    directoryPath = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    self.sizeLimit = sizeLimit
  }

  /// The file's bytes, or `nil` if there is no file (or no directory for it).
  func contents() throws(StorageFailure) -> Data? {
    let (directory, directoryFailure) = openDirectory()
    guard directory >= 0 else {
      let code = directoryFailure
      // ENOTDIR: a parent is a regular file, so there is no file here either.
      if code == ENOENT || code == ENOTDIR { return nil }
      if code == ELOOP { throw StorageFailure(.refuse, path: path, errorNumber: code) }
      throw StorageFailure(.read, path: path, errorNumber: code)
    }
    defer { close(directory) }
    // O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever. O_NOCTTY: a terminal
    // must not become the process's controlling terminal.
    let descriptor = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw StorageFailure(.refuse, path: path, errorNumber: code) }
      throw StorageFailure(.read, path: path, errorNumber: code)
    }
    defer { close(descriptor) }
    // The descriptor, not the path, is checked, so the file cannot be swapped in between.
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw StorageFailure(.read, path: path, errorNumber: errno) }
    guard status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= sizeLimit else {
      throw StorageFailure(.refuse, path: path)
    }
    return try readAll(descriptor, expecting: Int(status.st_size))
  }

  // Reads to the end, or fails once more than `sizeLimit` bytes came: the file may grow after
  // `fstat`.
  private func readAll(_ descriptor: Int32, expecting size: Int) throws(StorageFailure) -> Data {
    var data = Data()
    data.reserveCapacity(size)
    var buffer = [UInt8](repeating: 0, count: min(sizeLimit + 1, 64 * 1024))
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      guard count > 0 else {
        let code = errno
        if code == EINTR { continue }
        throw StorageFailure(.read, path: path, errorNumber: code)
      }
      data.append(contentsOf: buffer[..<count])
      guard data.count <= sizeLimit else { throw StorageFailure(.refuse, path: path) }
    }
  }

  /// Replaces the file with `data`.
  func replace(with data: Data) throws(StorageFailure) {
    guard data.count <= sizeLimit else {
      try remove()
      throw StorageFailure(.write, path: path, errorNumber: EFBIG)
    }
    var (directory, failure) = openDirectory()
    // ENOENT: the directory is missing (the common first save); create it and try once more.
    if directory < 0, failure == ENOENT {
      try createDirectory(directoryPath)
      (directory, failure) = openDirectory()
    }
    guard directory >= 0 else { throw StorageFailure(.write, path: path, errorNumber: failure) }
    defer { close(directory) }
    try writeAtomically(data, in: directory)
  }

  /// Deletes the file, if there is one. Deletes a link, never its target.
  func remove() throws(StorageFailure) {
    let (directory, failure) = openDirectory()
    guard directory >= 0 else {
      let code = failure
      if code == ENOENT || code == ENOTDIR { return }
      throw StorageFailure(.remove, path: path, errorNumber: code)
    }
    defer { close(directory) }
    guard unlinkat(directory, name, 0) == 0 || errno == ENOENT else {
      throw StorageFailure(.remove, path: path, errorNumber: errno)
    }
  }

  // The directory's descriptor, or -1 and why not (`errno`, read at once). A link in the
  // directory's place is reported as ELOOP: Linux says ENOTDIR when O_DIRECTORY meets a link,
  // which would read as "no file here" instead of as a refusal.
  private func openDirectory() -> (descriptor: Int32, failure: Int32) {
    let descriptor = open(directoryPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor < 0 else { return (descriptor, 0) }
    let failure = errno
    var status = stat()
    if failure == ENOTDIR, lstat(directoryPath, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
      return (-1, ELOOP)
    }
    return (-1, failure)
  }

  private func writeAtomically(_ data: Data, in directory: Int32) throws(StorageFailure) {
    // A dot name keeps the temporary file out of casual listings; the UUID keeps processes that
    // share the directory from colliding.
    let temporaryName = ".\(name).\(UUID().uuidString).tmp"
    let descriptor = openat(
      directory, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw StorageFailure(.write, path: path, errorNumber: errno) }
    var renamed = false
    defer {
      if !renamed { unlinkat(directory, temporaryName, 0) }
    }
    do throws(StorageFailure) {
      try writeAll(data, to: descriptor)
    } catch {
      close(descriptor)
      throw error
    }
    // A failing close can be the first report of a failed write (on network file systems).
    guard close(descriptor) == 0 else { throw StorageFailure(.write, path: path, errorNumber: errno) }
    guard renameat(directory, temporaryName, directory, name) == 0 else {
      throw StorageFailure(.write, path: path, errorNumber: errno)
    }
    renamed = true
    // Makes the rename itself durable; best effort, as the data is already safe in either file.
    fsync(directory)
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
  private func createDirectory(_ directory: String) throws(StorageFailure) {
    var failure = makeDirectory(directory)
    let parent = (directory as NSString).deletingLastPathComponent
    if failure == ENOENT, !parent.isEmpty, parent != directory {
      try createDirectory(parent)
      failure = makeDirectory(directory)
    }
    if let failure { throw StorageFailure(.write, path: path, errorNumber: failure) }
  }

  // `nil` when the directory is there now, else why not (`errno`, read at once, before anything
  // else can change it). Only a directory made here gets its mode set: one that already existed
  // belongs to someone else.
  private func makeDirectory(_ directory: String) -> Int32? {
    guard mkdir(directory, 0o700) == 0 else {
      let failure = errno
      return failure == EEXIST ? nil : failure
    }
    // The umask may have taken bits away from the mode given to mkdir. The mode is set through
    // a descriptor opened without following a link, so a link swapped in for the new directory
    // cannot redirect it.
    let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return errno }
    defer { close(descriptor) }
    return fchmod(descriptor, 0o700) == 0 ? nil : errno
  }
}
