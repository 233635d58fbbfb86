extension String {
  /// Whether the text has no character other than white space (an empty text is blank).
  var isBlank: Bool {
    allSatisfy(\.isWhitespace)
  }
}
