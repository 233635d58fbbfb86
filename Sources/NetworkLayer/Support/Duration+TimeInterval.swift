import Foundation

extension Duration {
  /// The duration in seconds, as Foundation measures time.
  var timeInterval: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
