/// A misbehaviour injected through `POST /_control/faults`, consumed by matching requests.
struct SampleFault: Codable, Sendable, Hashable {
  /// How the body of an otherwise normal response is damaged.
  enum BodyFault: String, Codable, Sendable {
    case truncated, malformed, empty, reset, close
  }

  var path: String
  var method: String?
  /// How many requests it affects; -1 for all of them.
  var count: Int?
  var status: Int?
  var retryAfter: String?
  var delay: Double?
  var body: BodyFault?
  /// Sent as a `Location` header with `status`, for redirect tests.
  var location: String?

  /// Why this fault cannot be used, or `nil` if it can.
  var validationProblem: String? {
    if let count, count != -1 && count < 1 { return "'count' must be -1 or at least 1" }
    if let status, !(200...599).contains(status) { return "'status' must be between 200 and 599" }
    if let retryAfter, retryAfter.contains(where: \.isNewline) { return "'retryAfter' must be one line" }
    if let delay, !(delay >= 0 && delay.isFinite) { return "'delay' must be a non-negative number" }
    if let location, location.contains(where: \.isNewline) { return "'location' must be one line" }
    return nil
  }

  func matches(method requestMethod: String, path requestPath: String) -> Bool {
    path == requestPath && (method.map { $0.uppercased() == requestMethod } ?? true)
  }
}
