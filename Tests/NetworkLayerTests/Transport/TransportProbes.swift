import Foundation
import LayeredTestSupport
import NetworkLayer

/// The python server's `/_probe/` hooks (see `TransportProbes` in `scripts/sample_api.py`).
extension SampleBackendConnection {
  /// What the probes recorded.
  struct ProbeLog: Decodable, Sendable {
    struct Received: Decodable, Sendable {
      var method: String
      var path: String
      /// Header fields with lower-cased names.
      var headers: [String: String]
      var body: String
      /// A form body's fields as the server's form parser read them, as `[name, value]` pairs.
      var form: [[String]]?
      /// A multipart body's parts as the server's parser read them.
      var parts: [Part]?
    }

    struct Part: Decodable, Sendable, Equatable {
      var name: String?
      var filename: String?
      var contentType: String?
      var base64: String

      var data: Data? { Data(base64Encoded: base64) }
    }

    struct Flood: Decodable, Sendable {
      var bytesSent: Int
      var clientLeft: Bool
      var seconds: Double
    }

    var received: [Received]
    var challenged: Int
    /// Floods whose request reached the server, ended or not.
    var floodsBegun: Int
    /// Floods that have ended.
    var floods: [Flood]

    /// Whether every flood that began has ended and is in ``floods``. A client that gives up
    /// before its request reaches the server begins none: waiting for a flood to be recorded
    /// would then wait for nothing.
    var hasEveryFloodEnded: Bool { floods.count == floodsBegun }
  }

  /// Makes the next `count` requests for `path` answer 401 with `WWW-Authenticate: <scheme>`.
  func challenge(_ path: String, scheme: String, count: Int = 1) async throws {
    let payload = try JSONSerialization.data(withJSONObject: ["path": path, "scheme": scheme, "count": count])
    let response = try await raw("POST", "/_probe/challenge", body: payload)
    guard response.status == 201 else {
      throw ControlError(description: "POST /_probe/challenge answered \(response.status)")
    }
  }

  func probeLog() async throws -> ProbeLog {
    try JSONDecoder().decode(ProbeLog.self, from: try await raw("GET", "/_probe/log").body)
  }

  /// The probe log once `isComplete` holds for it, or after about 5 s, whichever comes first:
  /// the server records a flood only when its handler has finished writing.
  func probeLog(waitingFor isComplete: (ProbeLog) -> Bool) async throws -> ProbeLog {
    var log = try await probeLog()
    for _ in 0..<500 where !isComplete(log) {
      try await Task.sleep(for: .milliseconds(10))
      log = try await probeLog()
    }
    return log
  }
}

/// Replies for the raw probe, written out byte for byte.
enum RawReply {
  /// An HTTP/1.1 reply with `status`, the `header` line, the body's length and a close, then
  /// `body`.
  static func closing(status: String, header: String, body: String = "") -> String {
    "HTTP/1.1 \(status)\r\n\(header)\r\nContent-Length: \(body.utf8.count)\r\n"
      + "Connection: close\r\n\r\n\(body)"
  }
}

extension Endpoint<Data> {
  /// The raw probe's endpoint: the server answers exactly `reply` (status line and all, as UTF-8)
  /// and then closes the connection.
  static func rawProbe(replying reply: String, inLatin1: Bool = false) -> Self {
    var query = [URLQueryItem(name: "reply", value: reply)]
    if inLatin1 { query.append(URLQueryItem(name: "encoding", value: "latin-1")) }
    return .raw(path: ["_probe", "raw"], query: query)
  }
}
