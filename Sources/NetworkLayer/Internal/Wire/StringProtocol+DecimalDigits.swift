extension StringProtocol {
  /// Whether this is RFC 9110's `1*DIGIT`: one or more ASCII digits and nothing else. `Int64(_:)`
  /// alone would also take a leading `+` or `-`, which no header's number may carry.
  var isDecimalDigits: Bool {
    !isEmpty && utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }
}
