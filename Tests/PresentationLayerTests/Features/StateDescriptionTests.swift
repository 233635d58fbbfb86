import DomainLayer
import Foundation
import PresentationLayer
import Testing

/// States, actions and side effects are printed into logs and test failures. The texts in them
/// come from the server (a failure's sentence, an article's title) or from the user (a username,
/// a title being typed): each stays inside its quotes, so none can start a line of its own.
@Suite("What a screen's state prints stays on one line")
struct StateDescriptionTests {
  private static let forging = "Refused.\n2026-11-28 INFO admin signed in"
  private static let escaped = #""Refused.\n2026-11-28 INFO admin signed in""#

  @Test("the todo list's summary escapes a failure's message, the typed title and the screen's message")
  func todoList() {
    var state = TodoListState()
    state.phase = .loadFailed(message: Self.forging)
    state.newTitle = Self.forging
    state.message = Self.forging
    let text = "\(state)"

    #expect(!text.contains("\n"), "\(text.debugDescription)")
    #expect(text.contains("loadFailed(\(Self.escaped))"))
    #expect(text.contains("typing \(Self.escaped)"))
    #expect(text.contains("message \(Self.escaped)"))
  }

  @Test("the login form, its actions and its side effects escape the username and the error")
  func login() {
    var state = LoginFeature.State()
    state.username = Self.forging
    state.errorMessage = Self.forging
    let texts = [
      "\(state)", "\(LoginFeature.Action.usernameChanged(Self.forging))",
      "\(LoginFeature.SideEffect.usernameChanged(Self.forging))",
      "\(LoginFeature.SideEffect.loginFailed(message: Self.forging, serverMessage: nil))",
    ]

    for text in texts {
      #expect(!text.contains("\n"), "\(text.debugDescription)")
      #expect(text.contains(Self.escaped))
    }
  }

  @Test("the article screen escapes the title")
  func article() throws {
    var state = ArticleFeature.State()
    state.article = try Article(id: 1, title: Self.forging, body: "Body.", publishedAt: Date())
    let text = "\(state)"

    #expect(!text.contains("\n"), "\(text.debugDescription)")
    #expect(text == "Article(\(Self.escaped))")
  }

  @Test(
    "line breaks Swift leaves in a quoted text (NEL, the line and paragraph separators), C1 controls and bidirectional overrides are escaped too"
  )
  func unicodeLineBreaksAndOverrides() throws {
    let hostile = "a\u{85}b\u{2028}c\u{2029}d\u{9B}2Je\u{202E}nimda\u{202C}"
    var state = TodoListState()
    state.phase = .loadFailed(message: hostile)
    var article = ArticleFeature.State()
    article.article = try Article(id: 1, title: hostile, body: "Body.", publishedAt: Date())
    let texts = ["\(state)", "\(LoginFeature.Action.usernameChanged(hostile))", "\(article)"]

    for text in texts {
      let unsafe = text.unicodeScalars.filter { scalar in
        [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
          || scalar.properties.isBidiControl
      }
      #expect(unsafe.isEmpty, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
      #expect(text.contains(#""a\u{85}b\u{2028}c\u{2029}d\u{9b}2Je\u{202e}nimda\u{202c}""#))
    }
  }
}
