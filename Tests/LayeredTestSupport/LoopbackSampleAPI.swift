public import Foundation
import LayeredSupport
import SampleBackend
public import Testing

/// `scripts/sample_api.py` serving on an ephemeral loopback port, in a process of its own.
///
/// Integration tests use it to meet what only real sockets show: refused connections, resets,
/// truncated bodies, real timeouts and cancellations. Each instance is its own process with its
/// own state, forked by the test process's one `SampleAPILauncher`, so Python starts once per
/// run. When the test process ends, even by crashing, the launcher's standard input closes and it
/// stops every server, so none is left behind.
public final class LoopbackSampleAPI: Sendable {
  /// Why the server could not be started.
  public struct StartError: Error, CustomStringConvertible {
    /// What went wrong: no python3, or what the server printed instead of its URL.
    public let description: String
  }

  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let launcher: SampleAPILauncher
  private let tag: String

  /// Whether loopback tests should run: python3 is on the PATH, or `CI` is set (then a missing
  /// python3 must fail the run instead of quietly skipping it).
  public static var shouldRun: Bool {
    pythonPath != nil || ProcessInfo.processInfo.environment["CI"] != nil
  }

  /// The reason shown for a skipped loopback test.
  public static let skipReason: Comment =
    "python3 was not found on PATH, so the loopback integration tests are skipped; with CI set they fail instead"

  static let pythonPath: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    return path.split(separator: ":")
      .map { "\($0)/python3" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  static let scriptURL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .appendingPathComponent("scripts/sample_api.py")

  /// Starts a server on `reserved` and waits until it listens.
  ///
  /// Stopping it leaves the port refusing connections and still reserved, so a test can take the
  /// server away and start it again at the same URL with no other server able to take its place.
  public static func start(on reserved: ReservedLoopbackPort) async throws -> LoopbackSampleAPI {
    try await start(port: reserved.port)
  }

  /// Starts a server and waits until it listens; `port` 0 picks a free one.
  ///
  /// A port given by number is shared with whoever holds it with `SO_REUSEPORT`, as a
  /// ``ReservedLoopbackPort`` does. A number that is not reserved is any server's to take once
  /// this one stops: to bring a server back at the same URL, use ``start(on:)``.
  public static func start(port: Int = 0) async throws -> LoopbackSampleAPI {
    guard let python = pythonPath else {
      throw StartError(
        description: "python3 not found on PATH; it is required to run the loopback integration tests")
    }
    let launcher = try SampleAPILauncher.shared(python: python, script: scriptURL)
    let (url, tag) = try await launcher.start(port: port)
    guard let baseURL = URL(string: url), baseURL.port != nil else {
      await launcher.stop(tag: tag)
      throw StartError(description: "sample_api.py did not print its URL (got \"\(url)\")")
    }
    return LoopbackSampleAPI(baseURL: baseURL, launcher: launcher, tag: tag)
  }

  private init(baseURL: URL, launcher: SampleAPILauncher, tag: String) {
    self.baseURL = baseURL
    self.launcher = launcher
    self.tag = tag
  }

  /// Stops the server and waits for its process to exit, so its port refuses connections.
  public func stop() async {
    await launcher.stop(tag: tag)
  }

  /// Runs `body` with a fresh server and stops the server afterwards, also when `body` throws.
  public static func with<T: Sendable>(
    _ body: (LoopbackSampleAPI) async throws -> T
  ) async throws -> T {
    let server = try await start()
    do {
      let result = try await body(server)
      await server.stop()
      return result
    } catch {
      await server.stop()
      throw error
    }
  }
}
