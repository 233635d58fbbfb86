public import Foundation

extension DomainError: CustomStringConvertible {
  /// For developers: the message, with the technical detail of the cases that carry one.
  public var description: String {
    switch self {
    case .server(let status?): "server(\(status)): \(message)"
    case .invalidData(let reason): "invalidData(\(reason))"
    case .unexpected(let reason): "unexpected(\(reason))"
    default: message
    }
  }
}

extension DomainError: LocalizedError {
  /// The ``message``, so `localizedDescription` is a sentence a person can be shown.
  public var errorDescription: String? { message }
}
