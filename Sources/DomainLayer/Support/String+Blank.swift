extension String {
  /// Whether the text has any character that is not white space.
  ///
  /// Walking `Character`s means grapheme breaking, microseconds for a list of todos; a printable
  /// ASCII byte other than space always starts (or follows a prepend mark in) a character that is
  /// not white space, so the common case is answered from the bytes, and only text without one
  /// (empty, blank, or entirely non-ASCII) is walked character by character.
  var isBlank: Bool {
    if utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
    return !contains { !$0.isWhitespace }
  }
}
