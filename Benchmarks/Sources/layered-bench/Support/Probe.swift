import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What the process has used so far: CPU time (user + system, every thread) and context
/// switches (voluntary + involuntary), from `getrusage`. Wall time on a shared machine is noisy;
/// these two count only this process's own work.
struct ResourceUsage {
  var cpuSeconds: Double
  var contextSwitches: Int

  static func now() -> ResourceUsage {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let cpu =
      Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
      + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    return ResourceUsage(cpuSeconds: cpu, contextSwitches: Int(usage.ru_nvcsw + usage.ru_nivcsw))
  }

  /// The resident set size in bytes, from `VmRSS` in /proc/self/status (0 where there is none).
  static func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
      return kilobytes * 1024
    }
    return 0
  }
}

extension Duration {
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
