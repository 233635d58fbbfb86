import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// A new request for `url` with `method` and the header `fields`, set the way that costs
  /// swift-corelibs-foundation least: the method only when it is not `GET`, which a new request
  /// has already, and the fields in one assignment, as a new request has none. The performance
  /// article has what it saves.
  init(url: URL, method: String, fields: [String: String]) {
    self.init(url: url)
    if method != "GET" { httpMethod = method }
    if !fields.isEmpty { allHTTPHeaderFields = fields }
  }
}
