import Foundation
import NetworkLayer
import SampleBackend

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sample API's `/_control/` hooks, spoken with plain URLSession (or straight to the embedded
/// API's transport) so that setting the scene never goes through the layers being shown.
struct BackendControl: Sendable {
  struct Counters: Decodable, Sendable {
    var requests: Int
    var refreshes: Int
    var cancelled: Int
    var paths: [String: Int]
  }

  struct ControlError: Error, CustomStringConvertible {
    let description: String
  }

  let baseURL: URL
  let load: @Sendable (URLRequest) async throws -> (Data, URLResponse)

  /// Control of the server at `baseURL`, spoken with `session`.
  init(baseURL: URL, session: URLSession) {
    self.baseURL = baseURL
    self.load = { request in try await session.data(for: request) }
  }

  /// Control of the embedded API that `transport` reaches.
  init(transport: InProcessTransport) {
    self.baseURL = transport.baseURL
    self.load = { request in try await transport.send(request) }
  }

  func inject(_ fault: [String: any Sendable]) async throws {
    try await call("POST", "faults", json: fault)
  }

  func configure(_ settings: [String: any Sendable]) async throws {
    try await call("POST", "config", json: settings)
  }

  func counters() async throws -> Counters {
    try JSONDecoder().decode(Counters.self, from: try await call("GET", "counters"))
  }

  func clearFaults() async throws {
    try await call("DELETE", "faults")
  }

  /// Every access token issued so far stops working; refresh tokens keep working.
  func revokeAccessTokens() async throws {
    try await call("POST", "revoke")
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
      (data, response) = try await load(request)
    } catch {
      // In the client's words, not Foundation's dump of the error's user info.
      let reason = (error as? NetworkError) ?? .transport(code: (error as? URLError)?.code.rawValue ?? 0)
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
