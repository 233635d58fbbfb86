import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// Text a server sends ends up in a ``NetworkError``'s description, which an app logs as it is.
/// These replies carry line breaks and a terminal escape, sent byte for byte by the Python
/// server's raw probe: the description must stay on one line, while the error's own values keep
/// the server's text as it came.
@Suite(
  "Server text in an error's description",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct ServerTextInDescriptionTests {
  /// A body that would forge a log line of its own and clear a terminal.
  private static let forging = "it failed\n2026-11-28 INFO signed in as admin\r\u{1B}[2J"

  private struct Item: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable { case task }
    var kind: Kind
  }

  @Test(
    "a 500's text body stays on the description's line and the console's; its excerpt keeps the line break"
  )
  func badStatusExcerpt() async throws {
    try await LoopbackSampleAPI.with { server in
      let printed = Locked<[String]>([])
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(),
        monitors: [ConsoleEventMonitor { text in printed.withLock { $0.append(text) } }])
      let reply = Self.reply(status: "500 Internal Server Error", type: "text/plain", body: Self.forging)

      let result = await client.outcome(.rawProbe(replying: reply))

      guard case .failure(let error) = result, case .badStatus(500, let excerpt?) = error else {
        Issue.record("expected a 500 with an excerpt, got \(result)")
        return
      }
      #expect(excerpt.contains("\n2026-11-28 INFO"), "the excerpt is the server's text")
      Self.expectOneLine(error.description)
      #expect(error.description.contains(#"it failed\n2026-11-28 INFO signed in as admin\r\u{1b}[2J"#))
      let lines = printed.withLock { $0 }
      #expect(lines.count == 3, "started, received, failed: \(lines)")
      for line in lines { Self.expectOneLine(line) }
      #expect(lines.last?.hasSuffix(error.description) == true)
    }
  }

  @Test("a refusal's sentence and field errors stay on the description's line; the error keeps them")
  func refusal() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())
      let body = #"{"detail": "Check the form.\nAdmin: yes", "errors": {"title": ["Too long.\u001b[2J"]}}"#

      let result = await client.outcome(
        Self.probe(
          Endpoint<NoContent>.self,
          replying: Self.reply(status: "422 Unprocessable Content", type: "application/json", body: body)))

      guard case .failure(let error) = result, case .refused(422, let message?, let fields) = error else {
        Issue.record("expected a refusal, got \(result)")
        return
      }
      #expect(message == "Check the form.\nAdmin: yes", "the screen gets the sentence as written")
      #expect(fields == ["title": ["Too long.\u{1B}[2J"]])
      Self.expectOneLine(error.description)
      #expect(error.description.contains(#"Check the form.\nAdmin: yes"#))
    }
  }

  @Test("a decoding failure that quotes the server's value stays on the description's line")
  func decodingFailure() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())
      let body = #"[{"kind": "task\nERROR forged"}]"#

      let result = await client.outcome(
        Self.probe(
          Endpoint<[Item]>.self, replying: Self.reply(status: "200 OK", type: "application/json", body: body))
      )

      guard case .failure(let error) = result, case .decodingFailed = error else {
        Issue.record("expected a decoding failure, got \(result)")
        return
      }
      Self.expectOneLine(error.description)
    }
  }

  @Test(
    "a server's right-to-left override is written as an escape in the description and the console, so the line reads as sent"
  )
  func bidirectionalOverride() async throws {
    // Shown as sent, "\u{202E}nimda\u{202C}" reads "admin" in a terminal or a log viewer.
    let body = "no user \u{202E}nimda\u{202C} here\u{2066}"
    try await LoopbackSampleAPI.with { server in
      let printed = Locked<[String]>([])
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(),
        monitors: [ConsoleEventMonitor { text in printed.withLock { $0.append(text) } }])

      let result = await client.outcome(
        .rawProbe(replying: Self.reply(status: "500 Internal Server Error", type: "text/plain", body: body)))

      guard case .failure(let error) = result, case .badStatus(500, let excerpt?) = error else {
        Issue.record("expected a 500 with an excerpt, got \(result)")
        return
      }
      #expect(excerpt == body, "the excerpt is the server's text")
      #expect(error.description.contains(#"no user \u{202e}nimda\u{202c} here\u{2066}"#))
      for text in [error.description] + printed.withLock({ $0 }) {
        #expect(
          !text.unicodeScalars.contains { $0.properties.isBidiControl },
          "\(text.debugDescription) reorders what follows it")
      }
    }
  }

  private static func expectOneLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let breaking = text.unicodeScalars.filter { $0.properties.generalCategory == .control }
    #expect(
      breaking.isEmpty, "\(text.debugDescription) has control characters", sourceLocation: sourceLocation)
  }

  private static func reply(status: String, type: String, body: String) -> String {
    RawReply.closing(status: status, header: "Content-Type: \(type)", body: body)
  }

  /// The raw probe as an endpoint of another response type.
  private static func probe<Response: Decodable>(
    _: Endpoint<Response>.Type, replying reply: String
  ) -> Endpoint<Response> {
    Endpoint<Response>(path: ["_probe", "raw"], query: [URLQueryItem(name: "reply", value: reply)])
  }
}
