import Foundation
import LayeredSupport

/// The one `scripts/sample_api.py --serve-many` of a test process, which forks a fresh server
/// for every `LoopbackSampleAPI`.
///
/// Each server is still its own process with its own state, listening before its URL arrives;
/// only Python's start-up is shared. A test run starts about 100 servers, and starting Python for
/// each would be a large share of the run's CPU (the performance article has the figure).
///
/// The launcher's standard input is this process's pipe, so when the test process ends, however
/// it ends, the launcher reads EOF and stops every server it started.
final class SampleAPILauncher: Sendable {
  private struct Replies {
    var nextTag = 0
    /// Keyed by the command and its tag: `start 3`, `stop 3`.
    var waiting: [String: CheckedContinuation<String?, Never>] = [:]
    var ended = false
  }

  /// Held, never read: Foundation tracks the launcher through its `Process`, which must live as
  /// long as this object does.
  private let process: Locked<Process>
  private let commands: Locked<FileHandle>
  private let replies = Locked(Replies())

  private static let running = Locked<SampleAPILauncher?>(nil)

  /// The launcher of this process, started on first use (and again if it has exited).
  static func shared(python: String, script: URL) throws -> SampleAPILauncher {
    try running.withLock { running in
      if let launcher = running, !launcher.hasEnded { return launcher }
      let launcher = try SampleAPILauncher(python: python, script: script)
      running = launcher
      return launcher
    }
  }

  private init(python: String, script: URL) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path, "--host", "127.0.0.1", "--serve-many"]
    let stdout = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardInput = stdin
    process.standardError = FileHandle.standardError
    try process.run()
    self.process = Locked(process)
    commands = Locked(stdin.fileHandleForWriting)
    let replies = self.replies
    let output = stdout.fileHandleForReading
    // A blocking reader of its own, so it never holds a cooperative-pool thread.
    Thread.detachNewThread { Self.deliver(from: output, to: replies) }
  }

  private var hasEnded: Bool { replies.withLock { $0.ended } }

  /// Starts a server on `port` (0: a free one) and returns its URL and the tag that stops it.
  func start(port: Int) async throws -> (url: String, tag: String) {
    let tag = replies.withLock { replies in
      replies.nextTag += 1
      return String(replies.nextTag)
    }
    guard let reply = await send("start \(tag) \(port)", awaiting: "start \(tag)") else {
      throw LoopbackSampleAPI.StartError(description: "sample_api.py --serve-many exited")
    }
    // `started TAG URL` or `failed TAG REASON`.
    let words = reply.split(separator: " ", maxSplits: 2).map(String.init)
    guard words.count == 3, words[0] == "started" else {
      throw LoopbackSampleAPI.StartError(description: "sample_api.py could not start a server: \(reply)")
    }
    return (words[2], tag)
  }

  /// Stops the server started under `tag` and returns once its process has exited.
  func stop(tag: String) async {
    _ = await send("stop \(tag)", awaiting: "stop \(tag)")
  }

  private func send(_ command: String, awaiting key: String) async -> String? {
    await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
      let accepted = replies.withLock { replies in
        guard !replies.ended else { return false }
        replies.waiting[key] = continuation
        return true
      }
      guard accepted else {
        continuation.resume(returning: nil)
        return
      }
      do {
        try commands.withLock { try $0.write(contentsOf: Data("\(command)\n".utf8)) }
      } catch {
        replies.withLock { $0.waiting.removeValue(forKey: key) }?.resume(returning: nil)
      }
    }
  }

  /// Hands each reply line to the command waiting for it; at EOF (the launcher exited) every
  /// waiting command gets nil.
  private static func deliver(from output: FileHandle, to replies: Locked<Replies>) {
    var pending = Data()
    while true {
      let chunk = output.availableData
      if chunk.isEmpty { break }
      pending.append(chunk)
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        let words = line.split(separator: " ", maxSplits: 2)
        guard words.count >= 2 else { continue }
        let command = words[0] == "stopped" ? "stop" : "start"
        let waiting = replies.withLock { $0.waiting.removeValue(forKey: "\(command) \(words[1])") }
        waiting?.resume(returning: line)
      }
    }
    let abandoned = replies.withLock { replies in
      replies.ended = true
      defer { replies.waiting.removeAll() }
      return Array(replies.waiting.values)
    }
    for continuation in abandoned { continuation.resume(returning: nil) }
  }
}
