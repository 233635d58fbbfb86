public import Foundation

/// An HTTP request as an in-process handler sees it: already parsed, body fully read.
public struct InProcessRequest: Sendable {
  /// The method, upper-case.
  public var method: String
  /// The percent-decoded path, starting with `/`.
  public var path: String
  /// The path's segments, each percent-decoded on its own: `/a%2Fb/%2E%2E` is `["a/b", ".."]`,
  /// two segments, where decoding the whole path first would give three. Routes match these,
  /// so an encoded slash or dot segment inside a value cannot reach another route.
  public var pathSegments: [String]
  /// The path as it was sent, still percent-encoded: what counters and faults are keyed by, as
  /// in the Python twin, so `/todos%2F1` is not counted as `/todos/1`.
  public var percentEncodedPath: String
  /// The query items, in order, decoded as a form is: off a URL, `+` is a space and bytes that
  /// are not UTF-8 read as U+FFFD.
  public var query: [URLQueryItem]
  /// Header fields with lower-cased names.
  public var headers: [String: String]
  /// The body; empty when there was none.
  public var body: Data

  /// Creates a request. Pass `percentEncodedPath` when the path came off a URL, so that
  /// ``pathSegments`` are split before they are decoded.
  public init(
    method: String,
    path: String,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Data = Data(),
    percentEncodedPath: String? = nil
  ) {
    self.method = method.uppercased()
    self.path = path
    self.percentEncodedPath = percentEncodedPath ?? path
    self.pathSegments = (percentEncodedPath ?? path)
      .split(separator: "/", omittingEmptySubsequences: true)
      .map { segment in
        guard percentEncodedPath != nil else { return String(segment) }
        return segment.removingPercentEncoding ?? String(segment)
      }
    self.query = query
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) },
      uniquingKeysWith: { _, last in last }
    )
    self.body = body
  }

  /// The value of header `name`, whatever its case.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }

  /// The value of the first query item called `name`.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// The body read as an `application/x-www-form-urlencoded` form (an OAuth token request's), in
  /// order, each item decoded as ``query``'s are.
  public var form: [URLQueryItem] {
    Self.formItems(String(decoding: body, as: UTF8.self))
  }

  /// The items of a query, or of a form body, as a form parser reads them, as the Python twin's
  /// `parse_qsl` does: `+` is a space, an item without `=` has an empty value, a `%` not followed
  /// by two hex digits stays as it is, and bytes that are not UTF-8 become U+FFFD.
  /// (`URLComponents.queryItems` keeps `+`, and gives no value at all for `=%FF`, so a search for
  /// it would find everything.)
  static func formItems(_ query: String) -> [URLQueryItem] {
    query.split(separator: "&").map { item in
      let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return URLQueryItem(name: formDecoded(parts[0]), value: parts.count > 1 ? formDecoded(parts[1]) : "")
    }
  }

  private static func formDecoded(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    var rest = Array(text.utf8)[...]
    while let byte = rest.popFirst() {
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), let high = rest.first.flatMap(hexValue),
        let low = rest.dropFirst().first.flatMap(hexValue)
      {
        bytes.append(high << 4 | low)
        rest = rest.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The value of one hex digit, or `nil` for any other byte.
  private static func hexValue(_ byte: UInt8) -> UInt8? {
    UInt8(String(UnicodeScalar(byte)), radix: 16)
  }
}
