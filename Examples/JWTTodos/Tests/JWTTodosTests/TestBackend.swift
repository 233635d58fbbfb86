import Foundation
import JWTTodos
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The backend a test runs against, and what its server saw.
protocol TestBackend: Sendable {
  var baseURL: URL { get }
  var transport: any HTTPTransport { get }
  /// Requests the server counted for `"METHOD /path"`, as sent.
  func count(_ key: String) async throws -> Int
  /// Every `"METHOD /path"` the server was asked for.
  func paths() async throws -> [String]
  func refreshTokensReceived() async throws -> [String]
  func blacklisted() async throws -> Set<String>
  func setAccessLifetime(_ seconds: Double) async throws
  func revokeAccessTokens() async throws
  func stop() async
}

/// The two twins of the backend: routes on an in-process sample API, and `scripts/jwt_backend.py`
/// over loopback sockets.
enum BackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case inProcess
  case loopback

  var testDescription: String { rawValue }

  func start(accessLifetime: Double) async throws -> any TestBackend {
    switch self {
    case .inProcess:
      return try InProcessBackend(accessLifetime: accessLifetime)
    case .loopback:
      guard LoopbackSampleAPI.shouldRun else { try Test.cancel(LoopbackSampleAPI.skipReason) }
      return try await LoopbackBackend.start(accessLifetime: accessLifetime)
    }
  }
}

private struct InProcessBackend: TestBackend {
  let backend: JWTTodosBackend
  let server: SampleBackendConnection
  let inProcess: InProcessTransport

  init(accessLifetime: Double) throws {
    backend = JWTTodosBackend(accessLifetime: accessLifetime)
    let api = SampleAPI()
    try backend.register(on: api)
    inProcess = api.transport()
    server = SampleBackendConnection(inProcess)
  }

  var baseURL: URL { inProcess.baseURL }
  var transport: any HTTPTransport { inProcess }
  func count(_ key: String) async throws -> Int { try await server.counters().paths[key, default: 0] }
  func paths() async throws -> [String] { Array(try await server.counters().paths.keys) }
  func refreshTokensReceived() async throws -> [String] { backend.refreshTokensReceived }
  func blacklisted() async throws -> Set<String> { backend.blacklisted }
  func setAccessLifetime(_ seconds: Double) async throws { backend.setAccessLifetime(seconds) }
  func revokeAccessTokens() async throws { backend.revokeAccessTokens() }
  func stop() async {}
}

/// `scripts/jwt_backend.py` on a free port, in a process of its own that ends with its stdin.
// The process and pipes are touched only when the server starts and when it stops.
private final class LoopbackBackend: TestBackend, @unchecked Sendable {
  private struct State: Decodable {
    var paths: [String: Int]
    var refreshTokensReceived: [String]
    var blacklisted: [String]
  }

  let baseURL: URL
  let transport: any HTTPTransport
  private let process: Process
  private let input: Pipe
  private let control = URLSession(configuration: .ephemeral)

  private init(baseURL: URL, process: Process, input: Pipe) {
    self.baseURL = baseURL
    self.process = process
    self.input = input
    transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
  }

  static func start(accessLifetime: Double) async throws -> LoopbackBackend {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts/jwt_backend.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "--port", "0", "--access-lifetime", String(accessLifetime)]
    let (input, output) = (Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    // The first line is the base URL, printed once the server listens.
    var line = Data()
    while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty,
      byte != Data("\n".utf8)
    {
      line += byte
    }
    guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
      process.terminate()
      throw ControlFailure(description: "jwt_backend.py printed no URL")
    }
    return LoopbackBackend(baseURL: url, process: process, input: input)
  }

  private struct ControlFailure: Error, CustomStringConvertible {
    let description: String
  }

  private func state() async throws -> State {
    let (data, _) = try await control.data(from: baseURL.appendingPathComponent("_control/state"))
    return try JSONDecoder().decode(State.self, from: data)
  }

  private func post(_ hook: String, _ body: String = "{}") async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("_control/\(hook)"))
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    _ = try await control.data(for: request)
  }

  func count(_ key: String) async throws -> Int { try await state().paths[key, default: 0] }
  func paths() async throws -> [String] { Array(try await state().paths.keys) }
  func refreshTokensReceived() async throws -> [String] { try await state().refreshTokensReceived }
  func blacklisted() async throws -> Set<String> { Set(try await state().blacklisted) }
  func setAccessLifetime(_ seconds: Double) async throws {
    try await post("config", #"{"accessLifetime":\#(seconds)}"#)
  }
  func revokeAccessTokens() async throws { try await post("revoke") }

  func stop() async {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
