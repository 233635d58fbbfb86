/// An RFC 8288 `Link` header field, read by its grammar rather than split on commas.
///
/// A link's target sits between `<` and `>` and may hold commas (Spring Data's `?sort=id,asc`),
/// and a parameter's value may be a quoted string holding commas, semicolons and escaped quotes.
/// Only a comma outside both ends a link. Anything the grammar does not expect is skipped up to
/// the next link, so one malformed link never hides the others.
struct LinkHeader {
  /// One link: its target as written (relative or absolute), and its parameters, names in
  /// lower case, in order.
  private struct Link {
    var target: String
    var parameters: [(name: String, value: String)]

    /// The relation types of the link's first `rel` parameter, in lower case; RFC 8288 has a
    /// parser ignore any later one.
    var relations: [Substring] {
      let rel = parameters.first { $0.name == "rel" }?.value ?? ""
      return rel.lowercased().split(whereSeparator: \.isWhitespace)
    }
  }

  private let characters: [Character]
  private var index = 0

  /// A reader of `field`'s links.
  private init(_ field: String) {
    characters = Array(field)
  }

  /// The target of the first link in `field` whose `rel` names `relation`, or `nil`.
  static func target(of relation: String, in field: String) -> String? {
    var header = LinkHeader(field)
    let relation = relation.lowercased()
    while let link = header.nextLink() {
      if link.relations.contains(Substring(relation)) { return link.target }
    }
    return nil
  }

  /// The next well-formed link, or `nil` at the end of the field.
  private mutating func nextLink() -> Link? {
    while index < characters.count {
      skip { $0 == "," || $0.isWhitespace }
      guard peek == "<" else {
        skipToNextLink()
        continue
      }
      index += 1
      let target = take { $0 != ">" }
      guard peek == ">" else { return nil }
      index += 1
      let parameters = readParameters()
      skipToNextLink()
      return Link(target: target, parameters: parameters)
    }
    return nil
  }

  /// `; name=value` pairs, each value a token or a quoted string.
  private mutating func readParameters() -> [(name: String, value: String)] {
    var parameters: [(name: String, value: String)] = []
    while true {
      skip(\.isWhitespace)
      guard peek == ";" else { return parameters }
      index += 1
      skip(\.isWhitespace)
      let name = take { !"=;,\"".contains($0) && !$0.isWhitespace }.lowercased()
      skip(\.isWhitespace)
      var value = ""
      if peek == "=" {
        index += 1
        skip(\.isWhitespace)
        value = peek == "\"" ? quotedString() : take { !";,".contains($0) && !$0.isWhitespace }
      }
      if !name.isEmpty { parameters.append((name, value)) }
    }
  }

  /// A quoted string from its opening quote, unescaped; an unclosed one runs to the end.
  private mutating func quotedString() -> String {
    index += 1
    var value = ""
    while index < characters.count, characters[index] != "\"" {
      if characters[index] == "\\", index + 1 < characters.count { index += 1 }
      value.append(characters[index])
      index += 1
    }
    index += 1
    return value
  }

  /// Moves past anything up to the comma that ends this link, reading quoted strings whole.
  private mutating func skipToNextLink() {
    while index < characters.count, characters[index] != "," {
      if characters[index] == "\"" { _ = quotedString() } else { index += 1 }
    }
  }

  private var peek: Character? {
    index < characters.count ? characters[index] : nil
  }

  private mutating func skip(_ predicate: (Character) -> Bool) {
    while let character = peek, predicate(character) { index += 1 }
  }

  private mutating func take(_ predicate: (Character) -> Bool) -> String {
    let start = index
    skip(predicate)
    return String(characters[start..<index])
  }
}
