/// A media type such as `application/json`, compared the way HTTP compares them:
/// case-insensitively, with parameters (`; charset=utf-8`, `; q=0.9`) ignored and with `*`
/// standing for any type or subtype. A JSON type admits every other: `application/json` and the
/// types with the `+json` suffix (RFC 6839) such as `application/problem+json`,
/// `application/vnd.api+json` and `application/hal+json` are all JSON, a JSON endpoint reads
/// each, and an API asked for its own (`application/vnd.github+json`) may answer with plain
/// `application/json`.
struct MediaType: Sendable, Hashable {
  let type: String
  let subtype: String

  /// Parses the first media type in `text`; `nil` if it is not of the form `type/subtype`.
  init?(_ text: some StringProtocol) {
    let essence = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
    let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let type = parts[0].trimmingWhitespace().lowercased()
    let subtype = parts[1].trimmingWhitespace().lowercased()
    guard !type.isEmpty, !subtype.isEmpty, type != "*" || subtype == "*" else { return nil }
    self.type = type
    self.subtype = subtype
  }

  /// The media type a `Content-Type` value stands for. Foundation joins a field sent twice into
  /// `"a, b"`; as in the Fetch standard's MIME type extraction, the last value that parses wins,
  /// and a range such as `*/*` is not a content type. Commas inside quoted parameters do not
  /// split.
  static func effective(inContentType value: String) -> MediaType? {
    var last: MediaType?
    for part in splitOutsideQuotes(value) {
      guard let type = MediaType(part), type.type != "*", type.subtype != "*" else { continue }
      last = type
    }
    return last
  }

  private static func splitOutsideQuotes(_ value: String) -> [Substring] {
    guard value.contains(",") else { return [Substring(value)] }
    var parts: [Substring] = []
    var start = value.startIndex
    var quoted = false
    var escaped = false
    for index in value.indices {
      let character = value[index]
      if escaped {
        escaped = false
      } else if quoted, character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
      } else if character == ",", !quoted {
        parts.append(value[start..<index])
        start = value.index(after: index)
      }
    }
    parts.append(value[start...])
    return parts
  }

  /// Every media range listed in an `Accept` header value.
  static func ranges(inAccept accept: String) -> [MediaType] {
    accept.split(separator: ",").compactMap(MediaType.init)
  }

  /// Whether this media range (possibly with wildcards) admits the concrete type `other`.
  func admits(_ other: MediaType) -> Bool {
    guard type == "*" || type == other.type else { return false }
    if subtype == "*" || subtype == other.subtype { return true }
    return isJSON && other.isJSON
  }

  /// Whether this is `application/json` or an application type with the `+json` suffix.
  private var isJSON: Bool {
    type == "application" && (subtype == "json" || subtype.hasSuffix("+json"))
  }
}

extension StringProtocol {
  fileprivate func trimmingWhitespace() -> Substring {
    let view = Substring(self)
    guard let first = view.firstIndex(where: { !$0.isWhitespace }),
      let last = view.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return view[first...last]
  }
}
