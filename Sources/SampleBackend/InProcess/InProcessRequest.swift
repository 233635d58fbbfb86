public import Foundation

/// An HTTP request as an in-process handler sees it: already parsed, body fully read.
public struct InProcessRequest: Sendable {
  /// The method, upper-case.
  public var method: String
  /// The percent-decoded path, starting with `/`.
  public var path: String
  /// The percent-decoded query items, in order.
  public var query: [URLQueryItem]
  /// Header fields with lower-cased names.
  public var headers: [String: String]
  /// The body; empty when there was none.
  public var body: Data

  /// Creates a request.
  public init(
    method: String,
    path: String,
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: Data = Data()
  ) {
    self.method = method.uppercased()
    self.path = path
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
