/// Why a file-backed store could not read, decode or write its file.
///
/// It names the operation, the file and the system's error number, and nothing else: it never
/// carries the bytes that were read or written, so reporting it cannot leak a token or a todo.
public struct StorageFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What the store was doing.
  public enum Operation: String, Sendable, Hashable {
    /// Reading the file's bytes.
    case read
    /// Refusing to read what is at the path: a symbolic link, anything that is not a regular file
    /// (a directory, a FIFO, a device, a socket), a file larger than the store's limit, or a
    /// directory for the file that is a symbolic link. Nothing of it is read; the store handles it
    /// like a corrupt file.
    case refuse
    /// Turning the bytes into a value: the file was corrupt, truncated or of another shape.
    case decode
    /// Turning a value into bytes.
    case encode
    /// Creating the directory, writing, syncing or renaming the file.
    case write
    /// Deleting the file.
    case remove
  }

  /// What the store was doing.
  public let operation: Operation
  /// The file's path.
  public let path: String
  /// The system's error number (`errno`) when the system refused (`ELOOP` for a symbolic link
  /// that was not followed); `EFBIG` for a value too large to write; `nil` for decoding and
  /// encoding failures and for files refused for their type or size.
  public let errorNumber: Int32?

  init(_ operation: Operation, path: String, errorNumber: Int32? = nil) {
    self.operation = operation
    self.path = path
    self.errorNumber = errorNumber
  }

  /// The operation, the path and the error number.
  public var description: String {
    let code = errorNumber.map { ", errno \($0)" } ?? ""
    return "StorageFailure(\(operation.rawValue), \(path)\(code))"
  }
}
