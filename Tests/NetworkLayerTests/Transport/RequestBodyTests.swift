import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import Testing

/// Form, multipart and JSON bodies as the loopback server's parsers read them.
@Suite(
  "Form, multipart and JSON bodies against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct RequestBodyTests {
  private struct Echo: Decodable, Sendable, Equatable {
    var echo: Bool
  }

  @Test("every field of a form body reaches the server's form parser exactly as given, in order")
  func fieldsArriveIntact() async throws {
    let fields = [
      URLQueryItem(name: "grant_type", value: "refresh_token"),
      URLQueryItem(name: "symbols", value: "a+b & c=d #e ?f %20 100%"),
      URLQueryItem(name: "text", value: "café ☕️ 日本"),
      URLQueryItem(name: "name with space", value: "line\nbreak"),
      URLQueryItem(name: "empty", value: ""),
      URLQueryItem(name: "symbols", value: "again"),
    ]

    let (result, received) = try await Self.sendToEcho(.form(fields))

    #expect(result == .success(Echo(echo: true)))
    let arrived = try #require(received.first)
    #expect(arrived.headers["content-type"] == "application/x-www-form-urlencoded")
    #expect(arrived.form == fields.map { [$0.name, $0.value ?? ""] })
  }

  @Test(
    "a JSON body goes out under the media type its backend asks for, encoded as any other",
    arguments: ["application/json", "application/vnd.api+json", "application/merge-patch+json"])
  func jsonMediaTypes(mediaType: String) async throws {
    struct Title: Encodable, Sendable { var title: String }
    var body = HTTPBody.json(Title(title: "Buy milk"))
    body.contentType = mediaType

    let (result, received) = try await Self.sendToEcho(body)

    #expect(result == .success(Echo(echo: true)))
    let arrived = try #require(received.first)
    #expect(arrived.headers["content-type"] == mediaType)
    #expect(arrived.body == #"{"title":"Buy milk"}"#)
  }

  @Test("a field without a value is sent as its name alone")
  func nameAlone() async throws {
    let fields = [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "a b", value: "1")]

    let (result, received) = try await Self.sendToEcho(.form(fields))

    #expect(result == .success(Echo(echo: true)))
    let arrived = try #require(received.first)
    #expect(arrived.body == "flag&a%20b=1")
    #expect(arrived.form == [["flag", ""], ["a b", "1"]])
  }

  @Test("a form body's credentials never appear in the error of a server that echoes the body")
  func echoedCredentials() async throws {
    let password = "pw form/secret+7 é"
    let refreshToken = "rt-form-secret-99"
    let body = HTTPBody.form([
      URLQueryItem(name: "username", value: "demo"),
      URLQueryItem(name: "password", value: password),
      URLQueryItem(name: "refresh_token", value: refreshToken),
      URLQueryItem(name: "note", value: "keep me"),
    ])

    let (result, _) = try await Self.sendToEchoingServer(body)

    guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
      Issue.record("expected the echo's 400, got \(result)")
      return
    }
    for secret in [password, refreshToken, "pw%20form%2Fsecret%2B7%20%C3%A9", "secret"] {
      #expect(!error.description.contains(secret), "\(secret) leaked into \(error.description)")
    }
    #expect(excerpt.contains("keep%20me"), "what is not secret stays readable: \(excerpt)")
  }

  /// Sends `body` to a careless server that answers 400 repeating it, with a verbose monitor;
  /// returns the outcome and the monitor's log.
  private static func sendToEchoingServer(_ body: HTTPBody) async throws -> (
    Result<Echo, NetworkError>, String
  ) {
    try await LoopbackSampleAPI.with { server in
      let lines = Locked<[String]>([])
      let monitor = ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(), monitors: [monitor])
      let endpoint = Endpoint<Echo>(
        method: .post,
        path: ["_control", "echo"],
        query: [URLQueryItem(name: "status", value: "400"), URLQueryItem(name: "part", value: "body")],
        body: body
      )
      let result = await client.outcome(endpoint)
      return (result, lines.withLock { $0.joined(separator: "\n") })
    }
  }

  /// Sends `body` to the echo probe; returns the outcome and what the probe recorded.
  private static func sendToEcho(_ body: HTTPBody) async throws -> (
    Result<Echo, NetworkError>, [SampleBackendConnection.ProbeLog.Received]
  ) {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: connection.transport)
      let result = await client.outcome(Endpoint<Echo>(method: .post, path: ["_probe", "echo"], body: body))
      return (result, try await connection.probeLog().received)
    }
  }

  @Test(
    "every part of a multipart body reaches the server's parser as given: names, file names, types and bytes")
  func multipartPartsArriveIntact() async throws {
    // Bytes that look like framing: a line break, a delimiter's dashes and the boundary's prefix.
    var bytes = Data([0x00, 0xFF, 0x0D, 0x0A])
    bytes.append(Data("--layered-\r\n--\r\n\r\n".utf8))
    let parts: [MultipartPart] = [
      .field("title", "café ☕️ & \"quotes\""),
      .file("upload", filename: "résumé.bin", data: bytes),
      .file("notes", filename: "notes.txt", contentType: "text/plain", data: Data("line 1\nline 2".utf8)),
      .field("empty", ""),
    ]

    let (result, received) = try await Self.sendToEcho(.multipart(parts))

    #expect(result == .success(Echo(echo: true)))
    let arrived = try #require(received.first?.parts)
    #expect(arrived.map(\.name) == parts.map(\.name))
    #expect(arrived.map(\.filename) == parts.map(\.filename))
    #expect(arrived.map(\.contentType) == parts.map(\.contentType))
    #expect(arrived.map(\.data) == parts.map(\.data))
    let contentType = try #require(received.first?.headers["content-type"])
    #expect(contentType.hasPrefix("multipart/form-data; boundary="))
  }

  @Test("a quote or a line break in a part's name or file name is escaped and cannot forge a header")
  func multipartNamesEscaped() async throws {
    let part = MultipartPart.file(
      "a\"b", filename: "evil.txt\"\r\nContent-Type: text/html", data: Data("<script>".utf8))

    let (_, received) = try await Self.sendToEcho(.multipart([part]))

    let arrived = try #require(received.first?.parts)
    #expect(arrived.count == 1)
    #expect(arrived.first?.name == "a%22b")
    #expect(arrived.first?.filename == "evil.txt%22%0D%0AContent-Type: text/html")
    #expect(arrived.first?.contentType == "application/octet-stream")
  }

  @Test("a part whose content type has a line break fails before anything is sent")
  func multipartContentTypeChecked() async throws {
    let part = MultipartPart.file(
      "upload", filename: "a.txt", contentType: "text/plain\r\nX-Forged: 1", data: Data("a".utf8))

    let (result, received) = try await Self.sendToEcho(.multipart([part]))

    guard case .failure(.invalidRequest) = result else {
      Issue.record("a forged part header was not refused: \(result)")
      return
    }
    #expect(received.isEmpty)
  }

  /// A multipart body written by hand, its file name before its name, as some encoders write it.
  private static let handWritten = HTTPBody.data(
    Data(
      ("--b0undary\r\nContent-Disposition: form-data; filename=\"a.txt\"; name=\"password\"\r\n\r\n"
        + "pw multipart/secret+8\r\n--b0undary\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\n"
        + "demo\r\n--b0undary--\r\n").utf8),
    contentType: "multipart/form-data; boundary=b0undary")

  @Test(
    "a multipart body's credential fields never appear in the log or the error of a server that echoes the body",
    arguments: [
      // The password first: the excerpt keeps only the start of the echo.
      HTTPBody.multipart([.field("password", "pw multipart/secret+8"), .field("username", "demo")]),
      handWritten,
    ]
  )
  func multipartEchoedCredentials(body: HTTPBody) async throws {
    let password = "pw multipart/secret+8"

    let (result, log) = try await Self.sendToEchoingServer(body)

    guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
      Issue.record("expected the echo's 400, got \(result)")
      return
    }
    #expect(!error.description.contains(password), "the password leaked into \(error.description)")
    #expect(!error.description.contains("secret"), "part of the password leaked: \(error.description)")
    #expect(!log.contains("secret"), "the password leaked into the log:\n\(log)")
    #expect(log.contains("form-data"), "the body is logged, without the password:\n\(log)")
    #expect(excerpt.contains("name=\\\"password\\\""), "what is not secret stays readable: \(excerpt)")
  }
}
