import Foundation

/// Where a page's body keeps its items and its marker (a next URL or a cursor), and whether the
/// marker may be a number.
struct PageKeys: Sendable {
  var items = "results"
  var marker = "next"
  var markerMayBeNumber = false
}

/// A page's body for `PageShape.results` and `.cursor`: its items and its marker, under names
/// the app gives for its backend. A `Decodable` type's keys are fixed when it is compiled, so the
/// names come through the decoder's `userInfo`. An empty marker is no marker: the page is the
/// last.
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
    let root = try decoder.container(keyedBy: Key.self)
    let (itemsPath, itemsKey) = Self.split(names.items)
    items = try Self.nested(itemsPath, in: root).decode([Item].self, forKey: itemsKey)
    let (markerPath, markerKey) = Self.split(names.marker)
    guard let object = try Self.nestedIfPresent(markerPath, in: root) else {
      marker = nil
      return
    }
    if names.markerMayBeNumber, let number = try? object.decodeIfPresent(Int64.self, forKey: markerKey) {
      marker = String(number)
    } else {
      marker = try object.decodeIfPresent(String.self, forKey: markerKey)
    }
    if marker?.isEmpty == true { marker = nil }
  }

  /// A dotted name's objects on the way (`links` in `links.next`), and its last key.
  private static func split(_ name: String) -> (path: [Key], key: Key) {
    let keys = name.split(separator: ".", omittingEmptySubsequences: false).map {
      Key(stringValue: String($0))
    }
    return (Array(keys.dropLast()), keys[keys.count - 1])
  }

  /// The object at the end of `path`; one missing on the way fails the decoding.
  private static func nested(_ path: [Key], in root: KeyedDecodingContainer<Key>) throws
    -> KeyedDecodingContainer<Key>
  {
    try path.reduce(root) { object, key in try object.nestedContainer(keyedBy: Key.self, forKey: key) }
  }

  /// The object at the end of `path`, or `nil` when one on the way is missing or `null`.
  private static func nestedIfPresent(_ path: [Key], in root: KeyedDecodingContainer<Key>) throws
    -> KeyedDecodingContainer<Key>?
  {
    var object = root
    for key in path {
      guard object.contains(key), try !object.decodeNil(forKey: key) else { return nil }
      object = try object.nestedContainer(keyedBy: Key.self, forKey: key)
    }
    return object
  }
}
