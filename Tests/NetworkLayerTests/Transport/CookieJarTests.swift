import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client built with `sendsCookies: true` keeps the cookies answers set and sends them back, as
/// the Python server sees them, without handing any `Set-Cookie` to Foundation's parser, whose
/// date parser would stop the process on an expiry with an accent after it.
@Suite(
  "A client that keeps cookies",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct CookieJarTests {
  /// A session with a jar of its own (an ephemeral configuration makes a new one each time), so
  /// no test sees another's cookies.
  private static func session() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }

  /// The raw probe answering `status` with the header lines `headers`, then closing.
  private static func reply(_ status: String, _ headers: String...) -> Endpoint<Data> {
    .rawProbe(
      replying: RawReply.closing(status: status, header: headers.joined(separator: "\r\n"), body: "ok"))
  }

  private static let echo = Endpoint<Data>.raw(path: ["_probe", "echo"])

  @Test(
    "a cookie an answer sets goes with the next request, and a Set-Cookie whose expiry ends in an accent stops nothing"
  )
  func answersSetCookies() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: Self.session(), sendsCookies: true)
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())

      let accented = "Sun, 06 Nov 1994 08:49:37 GMT\u{301}"
      #expect(
        try await client.send(Self.reply("200 OK", "Set-Cookie: broken=1; Expires=\(accented); Path=/"))
          == Data("ok".utf8))
      _ = try await client.send(Self.reply("200 OK", "Set-Cookie: session=s1; Path=/"))
      _ = try await client.send(Self.echo)

      let sent = try await connection.probeLog().received.filter { $0.path == "/_probe/echo" }
      #expect(sent.map { $0.headers["cookie"] } == ["session=s1"])
    }
  }

  @Test("a cookie a redirect sets goes with the request that follows it, in place of the value it replaces")
  func redirectsSetCookies() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: Self.session(), sendsCookies: true)
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())

      _ = try await client.send(
        Self.reply("200 OK", "Set-Cookie: session=before-login; Path=/", "Set-Cookie: csrftoken=c1; Path=/"))
      _ = try await client.send(
        Self.reply("302 Found", "Set-Cookie: session=after-login; Path=/", "Location: /_probe/echo"))

      let sent = try await connection.probeLog().received.filter { $0.path == "/_probe/echo" }
      let cookies = Set((sent.first?.headers["cookie"] ?? "").components(separatedBy: "; "))
      #expect(sent.count == 1)
      #expect(cookies == ["session=after-login", "csrftoken=c1"])
    }
  }

  @Test(
    "a request that sets its own Cookie field sends that one, and the jar still keeps what the answer sets")
  func ownCookieWins() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: Self.session(), sendsCookies: true)
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())

      _ = try await client.send(Self.reply("200 OK", "Set-Cookie: session=s1; Path=/"))
      var own = Self.reply("302 Found", "Set-Cookie: session=s2; Path=/", "Location: /_probe/echo")
      own.headers["Cookie"] = "mine=1"
      _ = try await client.send(own)
      _ = try await client.send(Self.echo)

      let sent = try await connection.probeLog().received.filter { $0.path == "/_probe/echo" }
      #expect(sent.map { $0.headers["cookie"] } == ["mine=1", "session=s2"])
    }
  }
}
