import Foundation
import LayeredSupport

/// The last few URLs a client built, by the text they were parsed from.
///
/// Parsing a URL's text is the dearest step of building a request on swift-corelibs-foundation,
/// and an app asks for the same few URLs over and over: a list it refreshes, an article it
/// reloads. A URL parsed from the same text is the same value, so handing out the one parsed
/// before changes nothing but the cost. A miss costs a scan of a few strings.
final class RecentURLs: Sendable {
  private struct Entry {
    let text: String
    let url: URL
  }

  private struct State {
    var entries: [Entry] = []
    /// The entry the next miss replaces once every place is taken: the oldest.
    var next = 0

    func url(for text: String) -> URL? {
      entries.first { $0.text == text }?.url
    }
  }

  /// How many URLs are kept: enough for the endpoints of a screen or two.
  static let capacity = 8

  private let state = Locked(State())

  /// The URL `text` denotes, or `nil` when it is not a URL.
  func url(for text: String) -> URL? {
    if let known = state.withLock({ $0.url(for: text) }) { return known }
    guard let url = URL(string: text) else { return nil }
    state.withLock { state in
      // Requests that missed together parse the same text each; one entry for it is enough.
      guard state.url(for: text) == nil else { return }
      let entry = Entry(text: text, url: url)
      if state.entries.count < Self.capacity {
        state.entries.append(entry)
      } else {
        state.entries[state.next] = entry
        state.next = (state.next + 1) % Self.capacity
      }
    }
    return url
  }
}
