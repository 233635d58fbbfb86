import Foundation

/// A list's `q`: the records whose title contains it, ignoring case, as `scripts/sample_api.py`
/// filters them (its `title_search`).
struct TitleSearch {
  /// What a lower-cased title must contain, each scalar lower-cased on its own (as Swift's
  /// `lowercased()` does: a capital sigma is always σ); `nil` without a `q`.
  private let needle: String?
  /// `q=…&` for the links of a paged answer, RFC 3986 unreserved characters kept; empty without
  /// a `q`.
  let linkFilter: String

  init(_ request: InProcessRequest) {
    let search = request.queryValue("q")
    needle = search?.lowercased()
    linkFilter =
      search?.addingPercentEncoding(withAllowedCharacters: Self.unreserved).map { "q=\($0)&" } ?? ""
  }

  /// RFC 3986's unreserved characters, which a link keeps as they are.
  private static let unreserved = CharacterSet(charactersIn: "-._~")
    .union(CharacterSet(charactersIn: "a"..."z")).union(CharacterSet(charactersIn: "A"..."Z"))
    .union(CharacterSet(charactersIn: "0"..."9"))

  /// Whether `title` is one the search finds: its lower-cased scalars hold the needle's, in a
  /// row, as Python's `in` finds a text in another (Foundation's `contains` on Linux would match
  /// a needle ending in NULs past the title's end).
  func admits(_ title: String) -> Bool {
    needle.map { title.lowercased().unicodeScalars.firstRange(of: $0.unicodeScalars) != nil } ?? true
  }
}
