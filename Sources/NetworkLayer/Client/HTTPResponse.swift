public import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A decoded value together with the details of the response it came from.
///
/// Returned by ``HTTPClient/response(for:)`` for callers that need more than the value: a
/// status that is one of several accepted ones, a header such as `ETag`, or the URL the
/// request ended at after redirects.
public struct HTTPResponse<Value: Sendable>: Sendable {
  /// The endpoint's decoded value.
  public let value: Value
  /// The HTTP status code of the final response.
  public let statusCode: Int
  /// The response's header fields, with names as the server sent them. Look a field up with
  /// ``value(forHTTPHeaderField:)``, which ignores case.
  public let headers: [String: String]
  /// The URL of the final response, after any redirects.
  public let url: URL?

  /// Creates a response record.
  public init(value: Value, statusCode: Int, headers: [String: String], url: URL?) {
    self.value = value
    self.statusCode = statusCode
    self.headers = headers
    self.url = url
  }

  init(value: Value, response: HTTPURLResponse) {
    var headers: [String: String] = [:]
    for case (let name as String, let value as String) in response.allHeaderFields {
      headers[name] = value
    }
    self.init(value: value, statusCode: response.statusCode, headers: headers, url: response.url)
  }

  /// The value of header `name`, compared without case; `nil` when the response has none.
  public func value(forHTTPHeaderField name: String) -> String? {
    if let exact = headers[name] { return exact }
    let lowered = name.lowercased()
    return headers.first { $0.key.lowercased() == lowered }?.value
  }
}
