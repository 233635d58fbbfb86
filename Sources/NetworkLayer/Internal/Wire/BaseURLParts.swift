import Foundation

/// The parts of a base URL a request is built from, already percent-encoded, taken apart once
/// per client so that building a request is string concatenation and one `URL(string:)`, which
/// the recent URLs spare for a URL it built before.
struct BaseURLParts: Sendable {
  /// `scheme://user@host:port`, without a path.
  let origin: String
  /// The base path without trailing slashes: `""` or `"/v1"`.
  let path: String
  /// Whether the base URL's path ended with a slash, kept when an endpoint adds no segment.
  let endsWithSlash: Bool
  /// The base URL's own query, already percent-encoded, sent before the endpoint's items.
  let query: String?
  let fragment: String?
  /// The URLs built last, so that a request for one of them parses no text.
  private let recentURLs = RecentURLs()

  init?(_ baseURL: URL) {
    guard
      var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
      let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
      components.host?.isEmpty == false
    else { return nil }
    var path = components.percentEncodedPath
    endsWithSlash = path.hasSuffix("/")
    while path.hasSuffix("/") { path.removeLast() }
    self.path = path
    query = components.percentEncodedQuery
    fragment = components.percentEncodedFragment
    // Written lower-case: swift-corelibs-foundation sends nothing for `HTTP://host`, and
    // fails it as an unsupported URL.
    components.scheme = scheme
    components.percentEncodedPath = ""
    components.percentEncodedQuery = nil
    components.percentEncodedFragment = nil
    guard let origin = components.string else { return nil }
    self.origin = origin
  }

  /// The URL of `path` below the base, each segment percent-encoded as one segment, the base's
  /// query before `query`'s items, and the base's fragment kept.
  func url(appending path: [String], endsWithSlash: Bool, query: [URLQueryItem]) throws(NetworkError) -> URL {
    var text = origin + self.path
    for segment in path {
      guard !segment.isEmpty else { throw Self.emptySegment(in: path) }
      text += "/"
      text += PercentEncoding.segment(segment)
    }
    // The endpoint's trailing slash, or the base URL's when the endpoint adds no segment.
    if endsWithSlash || (path.isEmpty && (self.path.isEmpty || self.endsWithSlash)) {
      text += "/"
    }
    if let baseQuery = self.query {
      text += "?"
      text += baseQuery
      if !baseQuery.isEmpty && !query.isEmpty { text += "&" }
    } else if !query.isEmpty {
      text += "?"
    }
    PercentEncoding.append(query, formEncodedTo: &text)
    if let fragment {
      text += "#"
      text += fragment
    }
    guard let url = recentURLs.url(for: text) else {
      throw .invalidURL("could not form a URL for path \(path)")
    }
    return url
  }

  /// The error for `path`, which has an empty segment: when only the last one is empty, it says
  /// how a path ends with a slash.
  private static func emptySegment(in path: [String]) -> NetworkError {
    guard !path.dropLast().contains(where: \.isEmpty) else { return .invalidURL("empty path segment") }
    return .invalidURL("empty last path segment: a path that ends with a slash is endingWithSlash()")
  }
}
