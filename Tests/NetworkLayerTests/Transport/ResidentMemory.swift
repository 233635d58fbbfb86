import Foundation

/// Samples this process's resident set size while some work runs, to see how much memory the
/// work needed at its peak. Linux only (it reads `/proc/self/status`); elsewhere every figure
/// is zero.
final class ResidentMemory: @unchecked Sendable {
  // Written only by the sampling thread before `finished` is signalled; read after.
  private var peak = 0
  private let stop = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)

  /// Whether this process runs under ThreadSanitizer, whose runtime defines `__tsan_init`.
  static let isSanitized: Bool = {
    #if os(Linux)
      // RTLD_DEFAULT: search every object loaded into the process.
      return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    #else
      return false
    #endif
  }()

  /// The current resident set size in bytes.
  static func current() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
  }

  /// Runs `work` and returns its result and the peak resident set size growth, in bytes, seen
  /// while it ran (sampled every millisecond).
  static func peakGrowth<T: Sendable>(during work: () async throws -> T) async rethrows -> (T, Int) {
    let baseline = current()
    let sampler = ResidentMemory()
    let thread = Thread {
      var peak = 0
      while sampler.stop.wait(timeout: .now() + .milliseconds(1)) == .timedOut {
        peak = max(peak, current())
      }
      sampler.peak = max(peak, current())
      sampler.finished.signal()
    }
    thread.start()
    let result = try await work()
    sampler.stop.signal()
    sampler.finished.wait()
    return (result, max(0, sampler.peak - baseline))
  }
}
