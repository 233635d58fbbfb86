import DomainLayer

/// The screen state of the variants without a view model: what they assign the article they load.
@MainActor
final class RawScreen {
  var article: Article?
}
