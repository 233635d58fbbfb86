import Foundation

/// Where a page's body keeps its items and its marker (a next URL or a cursor), and whether the
/// marker may be a number.
struct PageKeys: Sendable {
  var items = "results"
  var marker = "next"
  var markerMayBeNumber = false
}

/// A page's body for `PageShape.results` and `.cursor`: its items and its marker, under keys the
/// backend chooses. `Decodable` knows its keys at compile time, so these come through the
/// decoder's `userInfo`. An empty marker is no marker: the page is the last.
struct PageEnvelope<Item: Decodable & Sendable>: Decodable, Sendable {
  var items: [Item]
  var marker: String?

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static var keys: CodingUserInfoKey? { CodingUserInfoKey(rawValue: "layered.page.keys") }

  static func decoder(_ names: PageKeys) -> JSONDecoder {
    let decoder = JSONDecoder()
    if let keys { decoder.userInfo[keys] = names }
    return decoder
  }

  init(from decoder: any Decoder) throws {
    let names = Self.keys.flatMap { decoder.userInfo[$0] as? PageKeys } ?? PageKeys()
    let container = try decoder.container(keyedBy: Key.self)
    items = try container.decode([Item].self, forKey: Key(stringValue: names.items))
    let key = Key(stringValue: names.marker)
    if names.markerMayBeNumber, let number = try? container.decodeIfPresent(Int64.self, forKey: key) {
      marker = String(number)
    } else {
      marker = try container.decodeIfPresent(String.self, forKey: key)
    }
    if marker?.isEmpty == true { marker = nil }
  }
}
