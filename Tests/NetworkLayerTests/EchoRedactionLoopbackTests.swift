import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// A careless server repeats the request in its error body; none of the request's secrets may
/// reach an error description or a log line.
@Suite(
  "Credentials never appear in text, even when the server echoes them",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct EchoRedactionLoopbackTests {
  private struct Login: Encodable, Sendable {
    var username = "demo"
    var password = #"pw-"body"/secret-\7"#
    var refreshToken = "rt-body-secret-88"
    var note = "keep me"
  }

  private static let secrets = [
    "pw-", "body", "secret-", "rt-body-secret-88", "at-bearer-secret-11", "ak-header-secret-22",
    "ck-cookie-secret-33", "ak-query-secret-44", "sig-query-secret-55", "pw-url-secret-66",
  ]

  @Test(
    "an echoed request leaves no secret in the error description or the console log",
    arguments: [
      nil, "body", "query", "header:Authorization", "header:Cookie", "header:X-Api-Key", "header:X-Trace",
    ]
  )
  func echoedRequest(part: String?) async throws {
    try await LoopbackSampleAPI.with { server in
      let lines = Locked<[String]>([])
      let monitor = ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }
      var components = try #require(URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false))
      components.user = "demo"
      components.password = "pw-url-secret-66"
      let client = URLSessionHTTPClient(
        baseURL: try #require(components.url),
        session: .loopbackTesting(),
        monitors: [monitor]
      )
      let endpoint = Endpoint<TestTodo>(
        method: .post,
        path: ["_control", "echo"],
        query: [
          URLQueryItem(name: "status", value: "400"),
          URLQueryItem(name: "api_key", value: "ak-query-secret-44"),
          URLQueryItem(name: "X-Amz-Signature", value: "sig-query-secret-55"),
        ] + (part.map { [URLQueryItem(name: "part", value: $0)] } ?? []),
        headers: [
          "Authorization": "Bearer at-bearer-secret-11",
          "X-Api-Key": "ak-header-secret-22",
          "Cookie": "session=ck-cookie-secret-33",
          "X-Trace": "at-bearer-secret-11",
        ],
        body: .json(Login())
      )

      let result = await client.outcome(endpoint)
      guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
        Issue.record("expected the echo's 400, got \(result)")
        return
      }
      let log = lines.withLock { $0.joined(separator: "\n") }
      for secret in Self.secrets.dropFirst(3) + [Login().password] {
        #expect(!error.description.contains(secret), "\(secret) leaked into \(error.description)")
        #expect(!log.contains(secret), "\(secret) leaked into the log:\n\(log)")
      }
      #expect(!error.description.contains("pw-\\"), "the password's start leaked: \(error.description)")
      #expect(!log.contains("pw-\\"), "the password's start leaked into the log")
      // What is not secret stays readable.
      #expect(excerpt.contains("echo"))
      #expect(excerpt.contains(Redactor.placeholder))
      #expect(log.contains("/_control/echo"))
      #expect(log.contains("status=400"))
      #expect(log.contains("bad status 400"))
    }
  }

  /// A client of `server` whose verbose log lines are kept.
  private static func loggedClient(of server: LoopbackSampleAPI) -> (URLSessionHTTPClient, Locked<[String]>) {
    let lines = Locked<[String]>([])
    let monitor = ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }
    let client = URLSessionHTTPClient(
      baseURL: server.baseURL, session: .loopbackTesting(), monitors: [monitor])
    return (client, lines)
  }

  /// A sign-in whose password comes first, so that its echo falls in the error's excerpt.
  private static let accentedLogin =
    #"{"password":"pässwörd-gé-🔑-secret","username":"demo","note":""#
    + String(repeating: "long enough to be cut ", count: 60) + #""}"#

  @Test(
    "a secret that is not ASCII, echoed with its letters escaped as Django and Flask escape them, leaves no trace in a cut error body or the log"
  )
  func echoedEscapedSecret() async throws {
    try await LoopbackSampleAPI.with { server in
      let (client, lines) = Self.loggedClient(of: server)
      let endpoint = Endpoint<TestTodo>(
        method: .post,
        path: ["_control", "echo"],
        query: [URLQueryItem(name: "part", value: "body"), URLQueryItem(name: "ascii", value: "1")],
        body: .data(Data(Self.accentedLogin.utf8), contentType: "application/json")
      )

      let result = await client.outcome(endpoint)
      guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
        Issue.record("expected the echo's 400, got \(result)")
        return
      }
      // The server's own escapes, as they arrive: `\u00e4` for ä, a surrogate pair for the key.
      let fragments = ["sswörd", "u00e4ss", "w\\u00f6rd", "g\\u00e9", "ud83d", "udd11", "-secret"]
      let log = lines.withLock { $0.joined(separator: "\n") }
      for fragment in fragments {
        #expect(!error.description.contains(fragment), "\(fragment) leaked into \(error.description)")
        #expect(!log.contains(fragment), "\(fragment) leaked into the log:\n\(log)")
      }
      #expect(excerpt.contains("echo"), "what is not secret stays readable: \(excerpt)")
      #expect(excerpt.contains(Redactor.placeholder))
    }
  }

  /// An error body that quotes a token with one NUL at its end, where the token has two.
  struct QuotedToken: CustomTestStringConvertible, Sendable {
    var contentType: String
    var body: String
    var testDescription: String { contentType }
  }

  @Test(
    "a credential that ends in NUL characters, which an answer holds with fewer of them, stops nothing",
    arguments: [
      QuotedToken(contentType: "application/json", body: #"{"detail":"refused: nul-secret-token\u0000"}"#),
      QuotedToken(contentType: "text/plain", body: "refused: nul-secret-token\u{0}"),
    ]
  )
  func credentialEndingInNUL(quoted: QuotedToken) async throws {
    try await LoopbackSampleAPI.with { server in
      let (client, lines) = Self.loggedClient(of: server)
      var endpoint = Endpoint<Data>.rawProbe(
        replying: RawReply.closing(
          status: "400 Bad Request", header: "Content-Type: \(quoted.contentType)", body: quoted.body))
      endpoint.credentials = ["nul-secret-token\u{0}\u{0}"]

      let result = await client.outcome(endpoint)
      guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
        Issue.record("expected the 400, got \(result)")
        return
      }
      #expect(!excerpt.contains("nul-secret"), "the token leaked without its NULs: \(excerpt)")
      #expect(excerpt.contains("refused"), "what is not secret stays readable: \(excerpt)")
      #expect(lines.withLock { $0.contains { $0.contains("bad status 400") } })
    }
  }

  @Test(
    "a form that names its fields as Rails and PHP do, user[password], leaves no secret in the log or the error",
    arguments: ["user[password]", "user[password_confirmation]", "password[]", "auth[token]"]
  )
  func bracketedFieldNames(name: String) async throws {
    try await LoopbackSampleAPI.with { server in
      let (client, lines) = Self.loggedClient(of: server)
      let endpoint = Endpoint<TestTodo>(
        method: .post,
        path: ["_control", "echo"],
        query: [URLQueryItem(name: "part", value: "body")],
        body: .form([
          URLQueryItem(name: "user[email]", value: "demo@example.com"),
          URLQueryItem(name: name, value: "rails-secret-77"),
        ])
      )

      let result = await client.outcome(endpoint)
      guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
        Issue.record("expected the echo's 400, got \(result)")
        return
      }
      let log = lines.withLock { $0.joined(separator: "\n") }
      #expect(!error.description.contains("rails-secret"), "leaked into \(error.description)")
      #expect(!log.contains("rails-secret"), "leaked into the log:\n\(log)")
      #expect(excerpt.contains("example.com"), "what is not secret stays readable: \(excerpt)")
    }
  }
}
