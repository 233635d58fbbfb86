import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Byte-level checks of the request line and header fields (RFC 9110 §5.6.2), over UTF-8
/// without building a `CharacterSet` per call: request building runs once per attempt.
enum HeaderSyntax {
  /// Throws ``NetworkError/invalidRequest(_:)`` unless `name` is a token and `value` is safe.
  /// The value is never echoed: it may be a credential.
  static func validate(name: String, value: String) throws(NetworkError) {
    guard isToken(name) else { throw .invalidRequest("header name \"\(name)\" is not a valid token") }
    guard isSafeValue(value) else {
      throw .invalidRequest("value of header \"\(name)\" contains a line break or NUL")
    }
  }

  /// Checks a request as it will go on the wire: the method is a token, header names are tokens
  /// and no value contains CR, LF or NUL. The client runs it after the interceptors, which may
  /// add a value that came from a server, such as a bearer token.
  static func validate(_ request: URLRequest) throws(NetworkError) {
    try validate(method: request.httpMethod ?? "GET")
    for (name, value) in request.allHTTPHeaderFields ?? [:] {
      try validate(name: name, value: value)
    }
  }

  /// Throws ``NetworkError/invalidRequest(_:)`` unless `method` is a token. The method is not
  /// echoed: a forged one is an attack, not a detail worth printing.
  static func validate(method: String) throws(NetworkError) {
    guard isToken(method) else { throw .invalidRequest("the method is not an RFC 9110 token") }
  }

  /// Whether `text` is a non-empty RFC 9110 token: a method or a header name.
  static func isToken(_ text: String) -> Bool {
    text.withUTF8Bytes { bytes in !bytes.isEmpty && bytes.allSatisfy(isTokenByte) }
  }

  /// Whether a header value is free of CR, LF and NUL, any of which could end the field and
  /// start a forged one.
  static func isSafeValue(_ text: String) -> Bool {
    text.withUTF8Bytes { bytes in !bytes.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 } }
  }

  /// Whether two header names are the same name: equal but for the case of ASCII letters.
  static func sameName(_ name: String, _ other: String) -> Bool {
    guard name.utf8.count == other.utf8.count else { return false }
    for (byte, otherByte) in zip(name.utf8, other.utf8) where byte != otherByte {
      guard byte | 0x20 == otherByte | 0x20, (0x61...0x7A).contains(byte | 0x20) else { return false }
    }
    return true
  }

  /// `tchar`: a letter, a digit or one of ``!#$%&'*+-.^_`|~``. A comparison, not a table: a
  /// static table is an initialisation check and a bounds check on every byte.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
      true
    default:
      false
    }
  }
}
