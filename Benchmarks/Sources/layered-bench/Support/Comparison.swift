import Foundation

/// Variants of the same work measured in interleaved rounds in one process, each summarised as
/// min / median / max per operation, with the ratio of medians against the first (the baseline).
///
/// Each variant's time is also set against the baseline's in the same round, and the spread of
/// those per-round ratios printed: a machine that slows down for a while slows both alike, so
/// the spread shows how far a ratio of medians can be trusted on it.
///
/// The order of the variants alternates from round to round, so that neither always runs on a
/// warmer cache or right after the other's garbage.
@MainActor
struct Comparison {
  struct Variant {
    let name: String
    /// Performs `operations` operations.
    let round: @MainActor (_ operations: Int) async -> Void
  }

  let title: String
  let operationsPerRound: Int
  let rounds: Int
  let variants: [Variant]

  /// `LAYERED_BENCH_ONLY=<text>` keeps only the variant named exactly so or, if there is none,
  /// those whose name contains the text, so that a profiler sees one variant's work alone; the
  /// first one kept is the baseline. `LAYERED_BENCH_ROUNDS=<n>` replaces the number of rounds, and
  /// `LAYERED_BENCH_LIST=1` prints the table's variants instead of running them (for
  /// `scripts/bench-instructions`).
  init(title: String, operationsPerRound: Int, rounds: Int, variants: [Variant]) {
    let environment = ProcessInfo.processInfo.environment
    self.title = title
    self.operationsPerRound = operationsPerRound
    self.rounds = environment["LAYERED_BENCH_ROUNDS"].flatMap { Int($0) }.map { max(0, $0) } ?? rounds
    if let only = environment["LAYERED_BENCH_ONLY"] {
      let exact = variants.filter { $0.name == only }
      self.variants = exact.isEmpty ? variants.filter { $0.name.contains(only) } : exact
    } else {
      self.variants = variants
    }
  }

  /// Runs one warm-up round of each variant, then the measured rounds; prints the table and
  /// returns the medians of time per operation, by variant name.
  @discardableResult
  func run() async -> [String: Double] {
    if ProcessInfo.processInfo.environment["LAYERED_BENCH_LIST"] == "1" {
      print("table\t\(operationsPerRound)\t\(title)")
      for variant in variants { print("variant\t\(operationsPerRound)\t\(variant.name)") }
      return [:]
    }
    print("\(title): \(operationsPerRound) per round, \(rounds) rounds, interleaved")
    for variant in variants { await variant.round(max(1, operationsPerRound / 4)) }
    var time = Array(repeating: [Double](), count: variants.count)
    var cpu = Array(repeating: [Double](), count: variants.count)
    var switches = Array(repeating: [Double](), count: variants.count)
    let clock = ContinuousClock()
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? Array(variants.indices) : variants.indices.reversed()
      for index in order {
        let usageBefore = ResourceUsage.now()
        let start = clock.now
        await variants[index].round(operationsPerRound)
        let elapsed = clock.now - start
        let usageAfter = ResourceUsage.now()
        let count = Double(operationsPerRound)
        time[index].append(elapsed.seconds / count)
        cpu[index].append((usageAfter.cpuSeconds - usageBefore.cpuSeconds) / count)
        switches[index].append(Double(usageAfter.contextSwitches - usageBefore.contextSwitches) / count)
      }
    }
    let width = variants.map(\.name.count).max() ?? 0
    print(
      "  \("variant".padded(width))  time µs/op min / median / max  | ratio | CPU µs/op median | ratio | ctx sw/op"
        + " | per-round time ratio min / median / max"
    )
    var medians: [String: Double] = [:]
    for index in variants.indices {
      let t = Stats(time[index])
      let c = Stats(cpu[index])
      let s = Stats(switches[index])
      let baseT = Stats(time[0]).median
      let baseC = Stats(cpu[0]).median
      medians[variants[index].name] = t.median
      var spread = ""
      if index > 0 {
        let paired = Stats(zip(time[index], time[0]).map { $1 > 0 ? $0 / $1 : 0 })
        spread = " | \(fixed(paired.min, 3)) / \(fixed(paired.median, 3)) / \(fixed(paired.max, 3))"
      }
      print(
        "  \(variants[index].name.padded(width))  \(micro(t.min)) / \(micro(t.median)) / \(micro(t.max))"
          + "  | \(ratio(t.median, baseT)) | \(micro(c.median)) | \(ratio(c.median, baseC)) | \(fixed(s.median, 2))"
          + spread
      )
    }
    return medians
  }
}

/// min / median / max of samples.
struct Stats {
  let min: Double
  let median: Double
  let max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    min = sorted.first ?? 0
    max = sorted.last ?? 0
    if sorted.isEmpty {
      median = 0
    } else if sorted.count.isMultiple(of: 2) {
      median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    } else {
      median = sorted[sorted.count / 2]
    }
  }
}

func micro(_ seconds: Double) -> String { fixed(seconds * 1e6, 1) }

func ratio(_ value: Double, _ baseline: Double) -> String {
  baseline > 0 ? fixed(value / baseline, 3) + "×" : "-"
}

func fixed(_ value: Double, _ digits: Int) -> String {
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  let text = String(rounded)
  guard let dot = text.firstIndex(of: ".") else { return text }
  let decimals = text.distance(from: dot, to: text.endIndex) - 1
  return decimals < digits ? text + String(repeating: "0", count: digits - decimals) : text
}

extension String {
  func padded(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
