public import Foundation
import LayeredSupport
import SampleBackend
public import Testing

/// `scripts/sample_api.py` running as a child process on an ephemeral loopback port.
///
/// Integration tests use it to meet what only real sockets show: refused connections, resets,
/// truncated bodies, real timeouts and cancellations. Each instance is its own process with its
/// own state. The server is told to exit when its standard input closes, so even a test process
/// that crashes leaves no server behind.
public final class LoopbackSampleAPI: Sendable {
  /// Why the server could not be started.
  public struct StartError: Error, CustomStringConvertible {
    /// What went wrong: no python3, or what the server printed instead of its URL.
    public let description: String
  }

  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let process: ProcessBox
  private let stdinPipe: Pipe

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

  /// Starts a server and waits until it listens; `port` 0 picks a free one.
  public static func start(port: Int = 0) async throws -> LoopbackSampleAPI {
    guard let python = pythonPath else {
      throw StartError(
        description: "python3 not found on PATH; it is required to run the loopback integration tests")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      scriptURL.path, "--host", "127.0.0.1", "--port", String(port), "--exit-on-stdin-eof",
    ]
    let stdout = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardInput = stdin
    process.standardError = FileHandle.standardError
    try process.run()

    let firstLine = await readLine(from: stdout.fileHandleForReading)
    guard let firstLine, let url = URL(string: firstLine), url.port != nil else {
      process.terminate()
      throw StartError(
        description: "sample_api.py did not print its URL (got \(firstLine.map { "\"\($0)\"" } ?? "EOF"))")
    }
    return LoopbackSampleAPI(baseURL: url, process: ProcessBox(process), stdinPipe: stdin)
  }

  private init(baseURL: URL, process: ProcessBox, stdinPipe: Pipe) {
    self.baseURL = baseURL
    self.process = process
    self.stdinPipe = stdinPipe
  }

  /// Stops the server and waits for it to exit: closing its standard input ends it (it runs
  /// with `--exit-on-stdin-eof`), and SIGTERM follows in case it ignores that.
  public func stop() async {
    try? stdinPipe.fileHandleForWriting.close()
    let process = self.process
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        process.terminateAndWait()
        continuation.resume()
      }
    }
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

  /// Reads the first line on a background thread, so a blocking read never holds a
  /// cooperative-pool thread.
  private static func readLine(from handle: FileHandle) async -> String? {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        var bytes = Data()
        while true {
          let chunk = handle.readData(ofLength: 1)
          if chunk.isEmpty {
            continuation.resume(returning: nil)
            return
          }
          if chunk.first == UInt8(ascii: "\n") { break }
          bytes.append(chunk)
        }
        continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
      }
    }
  }
}

/// `Process` is not `Sendable`; this box serialises every use of it behind a lock.
private final class ProcessBox: Sendable {
  private let process: Locked<Process>

  init(_ process: Process) {
    self.process = Locked(process)
  }

  func terminateAndWait() {
    let process = self.process.withLock { $0 }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }
}
