/// Byte-level checks of the request line and header fields (RFC 9110 §5.6.2), over UTF-8
/// without building a `CharacterSet` per call: request building runs once per attempt.
enum HeaderSyntax {
  /// Whether `text` is a non-empty RFC 9110 token: a method or a header name.
  static func isToken(_ text: String) -> Bool {
    var isEmpty = true
    for byte in text.utf8 {
      guard tokenBytes[Int(byte)] else { return false }
      isEmpty = false
    }
    return !isEmpty
  }

  /// Whether a header value is free of CR, LF and NUL, any of which could end the field and
  /// start a forged one.
  static func isSafeValue(_ text: String) -> Bool {
    !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
  }

  /// Whether two header names are the same name: equal but for the case of ASCII letters.
  static func sameName(_ name: String, _ other: String) -> Bool {
    guard name.utf8.count == other.utf8.count else { return false }
    for (byte, otherByte) in zip(name.utf8, other.utf8) where byte != otherByte {
      guard byte | 0x20 == otherByte | 0x20, (0x61...0x7A).contains(byte | 0x20) else { return false }
    }
    return true
  }

  private static let tokenBytes: [Bool] = {
    var table = [Bool](repeating: false, count: 256)
    for byte in "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8 {
      table[Int(byte)] = true
    }
    return table
  }()
}
