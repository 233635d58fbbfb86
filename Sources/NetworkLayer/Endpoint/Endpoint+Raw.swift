public import Foundation

extension Endpoint where Response == Data {
  /// An endpoint whose response is the raw body: `Endpoint.raw(path: ["files", "report.pdf"])`.
  /// Any `Content-Type` matching `accept` (any by default) is accepted, and an empty body is empty
  /// `Data`. (`Endpoint<Data>(path:)` would read the body as a base64 JSON string.)
  public static func raw(
    method: HTTPMethod = .get,
    path: [String],
    query: [URLQueryItem] = [],
    headers: [String: String] = [:],
    body: HTTPBody? = nil,
    accept: String = "*/*",
    acceptableStatusCodes: Range<Int> = 200..<300,
    requiresAuthentication: Bool = false,
    isIdempotent: Bool? = nil,
    deadline: Duration? = nil
  ) -> Endpoint<Data> {
    var endpoint = Endpoint<Data>(
      method: method, path: path, query: query, headers: headers, body: body, accept: accept,
      acceptableStatusCodes: acceptableStatusCodes, requiresAuthentication: requiresAuthentication,
      isIdempotent: isIdempotent, deadline: deadline, emptyResponseValue: Data(),
      decode: { (data: Data) throws(NetworkError) -> Data in data })
    endpoint.emptyBodyIsValue = true
    return endpoint
  }
}
