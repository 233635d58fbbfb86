/// A misbehaviour injected through `POST /_control/faults`, consumed by matching requests.
struct SampleFault: Codable, Sendable, Hashable {
  /// How the body of an otherwise normal response is damaged.
  enum BodyFault: String, Codable, Sendable {
    case truncated, malformed, empty, reset
  }

  var path: String
  var method: String?
  /// How many requests it affects; -1 for all of them.
  var count: Int?
  var status: Int?
  var retryAfter: String?
  var delay: Double?
  var body: BodyFault?

  func matches(method requestMethod: String, path requestPath: String) -> Bool {
    path == requestPath && (method.map { $0.uppercased() == requestMethod } ?? true)
  }
}
