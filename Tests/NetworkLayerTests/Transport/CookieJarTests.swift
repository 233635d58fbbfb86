import Foundation
import LayeredSupport
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
    reply(status, headers)
  }

  private static func reply(_ status: String, _ headers: [String]) -> Endpoint<Data> {
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

  @Test(
    "a cookie a host sets for a whole top-level domain, or an IP address for the addresses that end like it, reaches no other host; one for its own parent domain does"
  )
  func cookiesStayWithinWhatTheirHostMaySet() async throws {
    let site = "s\(UUID().uuidString.prefix(8).lowercased()).test"
    let (a, b) = (Int.random(in: 1...250), Int.random(in: 1...250))
    let hosts = CookieHosts([
      "auth.\(site)": "Set-Cookie: sso=1; Domain=\(site); Path=/",
      "tracker.elsewhere-\(site)": "Set-Cookie: fixed=attacker; Domain=test; Path=/",
      "10.\(a).\(b).2": "Set-Cookie: leaked=1; Domain=\(b).2; Path=/",
      "api.\(site)": "", "10.\(a + 1).\(b).2": "",
    ])
    let client = URLSessionHTTPClient(
      baseURL: try #require(URL(string: "http://api.\(site)")), session: hosts.session(), sendsCookies: true)

    for host in [
      "auth.\(site)", "tracker.elsewhere-\(site)", "10.\(a).\(b).2", "api.\(site)", "10.\(a + 1).\(b).2",
    ] {
      var endpoint = Endpoint<Data>.raw(path: ["page"])
      endpoint.baseURL = URL(string: "http://\(host)")
      _ = try await client.send(endpoint)
    }

    let received = hosts.received.withLock { $0 }
    #expect(received["api.\(site)"] == "sso=1", "the API got its parent domain's cookie and no other")
    #expect(received["10.\(a + 1).\(b).2"] == "none", "another address got none of the first's")
  }

  @Test(
    "a Secure cookie goes only over https, a cookie only under its path, and none once an answer ends it with Max-Age=0 or a past Expires"
  )
  func cookiesGoOnlyWhereTheyBelong() async throws {
    let shop = "shop.s\(UUID().uuidString.prefix(8).lowercased()).test"
    let hosts = CookieHosts([
      shop: "",
      "\(shop)/secure": "Set-Cookie: s=1; Secure; Path=/",
      "\(shop)/admin-only": "Set-Cookie: p=1; Path=/admin",
      "\(shop)/short": "Set-Cookie: gone=1; Max-Age=3600; Path=/",
      "\(shop)/end-short": "Set-Cookie: gone=1; Max-Age=0; Path=/",
      "\(shop)/old": "Set-Cookie: old=1; Path=/",
      "\(shop)/end-old": "Set-Cookie: old=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/",
      "\(shop)/kept": "Set-Cookie: kept=1; Max-Age=3600; Path=/",
    ])
    let client = URLSessionHTTPClient(
      baseURL: try #require(URL(string: "https://\(shop)")), session: hosts.session(), sendsCookies: true)
    for path in ["secure", "admin-only", "short", "end-short", "old", "end-old", "kept"] {
      _ = try await client.send(Endpoint<Data>.raw(path: [path]))
    }

    var plain = Endpoint<Data>.raw(path: ["page"])
    plain.baseURL = URL(string: "http://\(shop)")
    _ = try await client.send(plain)
    _ = try await client.send(Endpoint<Data>.raw(path: ["admin", "x"]))
    _ = try await client.send(Endpoint<Data>.raw(path: ["adminx"]))

    let received = hosts.received.withLock { $0 }
    func cookies(_ url: String) -> Set<String> {
      Set((received[url] ?? "none").components(separatedBy: "; "))
    }
    #expect(cookies("http://\(shop)/page") == ["kept=1"])
    #expect(cookies("https://\(shop)/admin/x") == ["s=1", "p=1", "kept=1"])
    #expect(cookies("https://\(shop)/adminx") == ["s=1", "kept=1"])
  }

  @Test(
    "a host that sets cookie after cookie fills its domain's 50 and no more, and the session's cookie set first still goes"
  )
  func cookiesStayWithinLimits() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: Self.session(), sendsCookies: true)
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let filler = String(repeating: "f", count: 100)

      _ = try await client.send(Self.reply("200 OK", "Set-Cookie: session=s1; Path=/"))
      for batch in 0..<3 {
        let lines = (0..<40).map { "Set-Cookie: bomb\(batch)_\($0)=\(filler); Path=/" }
        _ = try await client.send(Self.reply("200 OK", lines))
      }
      // Past the 4,096 bytes RFC 6265 asks a jar to keep at the least.
      let large = String(repeating: "x", count: 4_097)
      _ = try await client.send(Self.reply("200 OK", "Set-Cookie: large=\(large); Path=/"))
      // A cookie the jar holds is still replaced when its domain is full.
      _ = try await client.send(Self.reply("200 OK", "Set-Cookie: session=s2; Path=/"))
      _ = try await client.send(Self.echo)

      let sent = try await connection.probeLog().received.filter { $0.path == "/_probe/echo" }
      let cookies = (sent.first?.headers["cookie"] ?? "").components(separatedBy: "; ")
      #expect(cookies.count == 50, "the server got \(cookies.count) cookies")
      #expect(cookies.contains("session=s2"))
      #expect(!cookies.contains { $0.hasPrefix("large=") })
    }
  }

}

/// Hosts answered in process through `URLSession`, each with its own `Set-Cookie` line, recording
/// the `Cookie` field each received.
private final class CookieHosts: Sendable {
  let received = Locked([String: String]())
  private let answers: [String: String]

  init(_ answers: [String: String]) {
    self.answers = answers
    CookieHostsProtocol.registry.withLock { registry in
      for key in answers.keys { registry[String(key.prefix { $0 != "/" })] = self }
    }
  }

  func session() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [CookieHostsProtocol.self]
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }

  /// Answers with the line given for the host and path (`shop.test/login`), else for the host;
  /// records what arrived under the host, and under the whole URL.
  func answer(_ request: URLRequest) -> HTTPURLResponse? {
    guard let url = request.url, let host = url.host, let line = answers[host + url.path] ?? answers[host]
    else { return nil }
    let cookie = request.value(forHTTPHeaderField: "Cookie") ?? "none"
    received.withLock { received in
      received[host] = cookie
      received[url.absoluteString] = cookie
    }
    var fields = ["Content-Type": "text/plain", "Content-Length": "0"]
    if let colon = line.firstIndex(of: ":") {
      fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
  }
}

private final class CookieHostsProtocol: URLProtocol {
  static let registry = Locked([String: CookieHosts]())

  private static func hosts(for request: URLRequest) -> CookieHosts? {
    guard let host = request.url?.host else { return nil }
    return registry.withLock { $0[host] }
  }

  override class func canInit(with request: URLRequest) -> Bool { hosts(for: request) != nil }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let response = Self.hosts(for: request)?.answer(request) else { return }
    client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    client?.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}
}
