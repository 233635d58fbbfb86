import Foundation
import LayeredTestSupport

/// Runs one scripted session against a backend and writes down what it answered, in a form that
/// can be compared across backends: status, the headers the contract defines, and the body with
/// JSON keys sorted and tokens (random by design) replaced by a placeholder.
struct ContractTranscript {
  let connection: SampleBackendConnection
  private(set) var lines: [String] = []

  init(connection: SampleBackendConnection) {
    self.connection = connection
  }

  /// Sends a request, records its answer and returns the parsed JSON body, if any.
  @discardableResult
  mutating func exchange(
    _ method: String,
    _ path: String,
    json: String? = nil,
    headers: [String: String] = [:]
  ) async throws -> Any? {
    let response = try await connection.raw(method, path, body: json.map { Data($0.utf8) }, headers: headers)
    let parsed = try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
    lines.append(
      try Self.line(method, path, status: response.status, headers: response.headers, body: response.body))
    return parsed
  }

  /// One answer in comparable form: status, the headers the contract defines, and the body
  /// with keys sorted and tokens replaced by a placeholder.
  static func line(
    _ method: String,
    _ path: String,
    status: Int,
    headers: [String: String],
    body data: Data
  ) throws -> String {
    let parsed = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    let shownHeaders = ["content-type", "allow", "www-authenticate", "retry-after"]
      .compactMap { name in headers[name].map { "\(name): \($0)" } }
    let body: String
    if let parsed {
      let canonical = try JSONSerialization.data(
        withJSONObject: Self.redactingTokens(parsed),
        options: [.sortedKeys, .fragmentsAllowed]
      )
      body = String(decoding: canonical, as: UTF8.self)
    } else {
      body = "raw(\(String(decoding: data, as: UTF8.self)))"
    }
    return "\(method) \(path) → \(status) [\(shownHeaders.joined(separator: "; "))] \(body)"
  }

  private static func redactingTokens(_ value: Any) -> Any {
    switch value {
    case let object as [String: Any]:
      object.mapValues(redactingTokens)
    case let array as [Any]:
      array.map(redactingTokens)
    case let text as String where text.hasPrefix("at-") || text.hasPrefix("rt-"):
      "<token>"
    default:
      value
    }
  }
}
