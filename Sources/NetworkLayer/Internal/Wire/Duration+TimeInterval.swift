import Foundation

extension Duration {
  /// The duration in seconds, as Foundation measures time.
  var timeInterval: TimeInterval {
    let (seconds, attoseconds) = components
    return Self.timeInterval(seconds: seconds, attoseconds: attoseconds)
  }

  /// A duration given by its components, in seconds, as Foundation measures time: for a caller
  /// that has read the components already, each read being a 128-bit division.
  static func timeInterval(seconds: Int64, attoseconds: Int64) -> TimeInterval {
    Double(seconds) + Double(attoseconds) / 1e18
  }
}
