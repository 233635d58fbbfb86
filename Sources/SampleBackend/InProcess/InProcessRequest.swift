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
}
