import Foundation
import LayeredSupport

/// The last few URLs a ``RequestBuilder`` parsed, by the text they were parsed from.
///
/// Parsing the text of a URL is the dearest step of building a request on
/// swift-corelibs-foundation (about 3,700 instructions, more than any other step the client
/// adds to a request), and an app asks for the same few URLs over and over: a list it refreshes,
/// an article it reloads. A URL parsed from the same text is the same value, so handing out the one
/// parsed before changes nothing but the cost. A miss costs a scan of a few strings, which
/// differ in length or in their first bytes.
final class RecentURLs: Sendable {
  private struct Entry {
    let text: String
    let url: URL
  }

  private struct State {
    var entries: [Entry] = []
    /// The entry the next miss replaces, once every place is taken: the oldest.
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
      // Requests that missed together (a screen's first burst) parse the same text each; one
      // entry for it is enough, and duplicates would push other URLs out.
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
