/// Text as one line of a log shows it, whoever wrote it: a server's sentence, a user's typing.
///
/// Whatever would end the line, drive a terminal, or make the rest of the line read in another
/// order is escaped: a server's text cannot forge a log line of its own, clear a screen, or show
/// `nimda` as `admin` behind a right-to-left override.
package enum PrintableText {
  /// `text` with line breaks and tabs written `\n`, `\r` and `\t`, and every other control
  /// character (C0 and C1), line or paragraph separator and bidirectional control written
  /// `\u{…}`. Everything else is kept as it is, accents and emoji included.
  package static func escaping(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        let category = scalar.properties.generalCategory
        let breaksTheLine =
          category == .control || category == .lineSeparator || category == .paragraphSeparator
        if breaksTheLine || scalar.properties.isBidiControl {
          result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// `text` in quotes, as a value inside a description: Swift's own quoting
  /// (`String.debugDescription`, which escapes quotes, backslashes and the C0 controls), then
  /// ``escaping(_:)`` for what that quoting leaves (NEL, the separators, C1 controls, overrides).
  package static func quoted(_ text: String) -> String {
    escaping(text.debugDescription)
  }
}
