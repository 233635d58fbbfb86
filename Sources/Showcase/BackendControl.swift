import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sample API's `/_control/` hooks, spoken with plain URLSession so that setting the scene
/// never goes through the layers being shown.
struct BackendControl: Sendable {
  struct Counters: Decodable, Sendable {
    var requests: Int
    var refreshes: Int
    var cancelled: Int
  }

  struct ControlError: Error, CustomStringConvertible {
    let description: String
  }

  let baseURL: URL
  let session: URLSession

  func inject(_ fault: [String: any Sendable]) async throws {
    try await call("POST", "faults", json: fault)
  }

  func configure(_ settings: [String: any Sendable]) async throws {
    try await call("POST", "config", json: settings)
  }

  func counters() async throws -> Counters {
    try JSONDecoder().decode(Counters.self, from: try await call("GET", "counters"))
  }

  @discardableResult
  private func call(_ method: String, _ hook: String, json: [String: any Sendable]? = nil) async throws
    -> Data
  {
    var request = URLRequest(url: baseURL.appendingPathComponent("_control").appendingPathComponent(hook))
    request.httpMethod = method
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch let error as URLError {
      // In the client's words, not Foundation's dump of the error's user info.
      let reason = NetworkError.transport(code: error.code.rawValue)
      throw ControlError(description: "no sample API answers at \(baseURL.absoluteString): \(reason)")
    }
    guard let status = (response as? HTTPURLResponse)?.statusCode, (200..<300).contains(status) else {
      let url = baseURL.absoluteString
      throw ControlError(description: "\(method) /_control/\(hook) failed: \(url) is not the sample API")
    }
    return data
  }

  /// Asks the server at `baseURL` for its counters once, to tell at the start whether it is the
  /// sample API.
  static func checkReachable(at baseURL: URL) async throws {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    _ = try await BackendControl(baseURL: baseURL, session: session).counters()
  }
}
