import Foundation

extension SampleBackendConnection {
  /// One request as it reached the loopback server, before any parsing could normalise it.
  public struct ReceivedRequest: Decodable, Sendable, Equatable {
    /// The raw request line, e.g. `GET /v1/users/%2E%2E/secret HTTP/1.1`.
    public var line: String
    /// The header fields in the order they arrived, as `[name, value]` pairs.
    public var headers: [[String]]

    /// The value of the first header called `name`, compared without case.
    public func header(_ name: String) -> String? {
      headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }
  }

  private struct ReceivedLog: Decodable {
    var requests: [ReceivedRequest]
  }

  /// Every non-control request the loopback server received since it started or was reset,
  /// oldest first (`GET /_control/received`; only `scripts/sample_api.py` has it).
  public func received() async throws -> [ReceivedRequest] {
    let response = try await raw("GET", "/_control/received")
    guard response.status == 200 else {
      throw ControlError(description: "GET /_control/received answered \(response.status)")
    }
    return try JSONDecoder().decode(ReceivedLog.self, from: response.body).requests
  }
}
