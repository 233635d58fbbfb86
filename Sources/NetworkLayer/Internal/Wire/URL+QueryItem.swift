import Foundation

extension URL {
  /// This URL with every query item named `name` removed and, when `value` is given, `name=value`
  /// appended, encoded as the client encodes every query item. The other items keep their order
  /// and their encoding.
  func settingQueryItem(_ name: String, to value: String?) -> URL {
    guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return self }
    let others = (components.percentEncodedQuery ?? "").split(separator: "&").filter {
      Self.decodedName(of: $0) != name
    }
    var query = others.joined(separator: "&")
    if let value {
      if !query.isEmpty { query += "&" }
      PercentEncoding.append([URLQueryItem(name: name, value: value)], formEncodedTo: &query)
    }
    components.percentEncodedQuery = query.isEmpty ? nil : query
    return components.url ?? self
  }

  /// The value of the last query item named `name`, decoded.
  func queryValue(named name: String) -> String? {
    let query = URLComponents(url: self, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
    let item = query.split(separator: "&").last { Self.decodedName(of: $0) == name }
    return item?.split(separator: "=", maxSplits: 1).dropFirst().first?.removingPercentEncoding
  }

  private static func decodedName(of item: Substring) -> String? {
    item.prefix { $0 != "=" }.removingPercentEncoding
  }
}
