import LayeredSupport

extension String {
  /// The text in quotes for a state's, action's or side effect's description, escaped so that it
  /// stays on the description's line and reads in the order it was written, whatever a server
  /// sent or a user typed (see `PrintableText.quoted`).
  var quoted: String {
    PrintableText.quoted(self)
  }
}
