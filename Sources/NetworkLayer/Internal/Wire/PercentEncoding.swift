import Foundation

/// Percent-encoding of path segments, queries and form bodies: everything but RFC 3986's
/// unreserved characters is encoded, as UTF-8, so what a server decodes is exactly what was given.
enum PercentEncoding {
  /// Appends `items` to `text` as `name=value` pairs joined by `&`, each name and value
  /// percent-encoded, and a name alone for an item without a value: a query, or a form body.
  static func append(_ items: [URLQueryItem], formEncodedTo text: inout String) {
    for (index, item) in items.enumerated() {
      if index > 0 { text += "&" }
      text += encode(item.name)
      if let value = item.value {
        text += "="
        text += encode(value)
      }
    }
  }

  /// Unreserved characters (RFC 3986 §2.3) pass, and so does any byte `passes` accepts;
  /// everything else is percent-encoded as UTF-8.
  static func encode(_ text: String, passing passes: (UInt8) -> Bool = isUnreserved) -> String {
    guard text.withUTF8Bytes({ bytes in !bytes.allSatisfy(passes) }) else { return text }
    var encoded: [UInt8] = []
    encoded.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      if passes(byte) {
        encoded.append(byte)
      } else {
        encoded.append(UInt8(ascii: "%"))
        encoded.append(hexDigits[Int(byte >> 4)])
        encoded.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: encoded, as: UTF8.self)
  }

  /// One path segment. `:` and `@` stay as they are, as RFC 3986 lets a segment hold them: a
  /// server may route by them, and Google's APIs answer `accounts%3AsignInWithPassword` with 404.
  /// The dot segments are encoded too: left as they are, Foundation and servers resolve them
  /// against the segments before them, so `["v1", "..", "x"]` would reach `/x`. `%2E` is the same
  /// character to a server, but not a dot segment.
  static func segment(_ segment: String) -> String {
    switch segment {
    case ".": "%2E"
    case "..": "%2E%2E"
    default: encode(segment, passing: isSegmentByte)
    }
  }

  /// An unreserved byte, `:` or `@`. The other characters RFC 3986 allows in a segment are
  /// encoded, since servers split on them: `;` starts a Java servlet's path parameter.
  private static func isSegmentByte(_ byte: UInt8) -> Bool {
    isUnreserved(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
  }

  /// A letter, a digit or one of `-._~`. A comparison, not a table: a static table is an
  /// initialisation check and a bounds check on every byte.
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default:
      false
    }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
