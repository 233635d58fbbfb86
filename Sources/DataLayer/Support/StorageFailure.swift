/// Why a file-backed store could not read, decode or write its file.
///
/// It names the operation, the file and the system's error number, and nothing else: it never
/// carries the bytes that were read or written, so reporting it cannot leak a token or a todo.
public struct StorageFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What the store was doing.
  public enum Operation: String, Sendable, Hashable {
    /// Reading the file's bytes.
    case read
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
  /// The system's error number (`errno`) when the system refused; `nil` for decoding and
  /// encoding failures.
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
