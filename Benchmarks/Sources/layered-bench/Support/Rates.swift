/// Operations per second measured over several rounds, summarised as min / median / max.
struct Rates {
  private(set) var samples: [Double] = []

  mutating func record(operations: Int, in duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    samples.append(Double(operations) / seconds)
  }

  var min: Double { samples.min() ?? 0 }
  var max: Double { samples.max() ?? 0 }
  var median: Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }

  /// `min / median / max` in thousands per second.
  var summary: String {
    "\(Self.thousands(min)) / \(Self.thousands(median)) / \(Self.thousands(max)) k/s"
  }

  private static func thousands(_ rate: Double) -> String {
    String(Int((rate / 1_000).rounded()))
  }
}
