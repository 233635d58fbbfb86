import DataLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `HTTPURLResponse.cookie(named:)` and `HTTPCookie.expiry`, as a login contract's `map` reads a
/// sign-in answer, on answers the Python server's raw probe writes byte for byte on a real socket.
@Suite(
  "The cookies a sign-in answer sets, as a login contract reads them",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct SetCookieTests {
  /// What the contract reads of one cookie: its value and expiry.
  private struct Read: Equatable {
    var value: String
    var expiry: TokenExpiry
  }

  @Test(
    "each of the Set-Cookie lines of Django's sign-in is found, its Max-Age the expiry even beside an Expires"
  )
  func djangoSignIn() async throws {
    let answer = try await Self.cookies(
      named: ["sessionid", "csrftoken", "messages"],
      setBy: [
        "Set-Cookie: csrftoken=Hy4c0; expires=Sat, 27 Nov 2027 12:27:34 GMT; Max-Age=31449600; Path=/; SameSite=Lax",
        "Set-Cookie: sessionid=4ot96lbc; expires=Fri, 01 Jan 2100 00:00:00 GMT; HttpOnly; Max-Age=3600; Path=/",
      ])

    #expect(
      answer == [
        Read(value: "4ot96lbc", expiry: .after(seconds: 3600)),
        Read(value: "Hy4c0", expiry: .after(seconds: 31_449_600)), nil,
      ])
  }

  @Test("Expires alone is a moment, neither is no expiry, and a Max-Age that is no number leaves the Expires")
  func expiries() async throws {
    let answer = try await Self.cookies(
      named: ["dated", "plain", "odd", "gone"],
      setBy: [
        "Set-Cookie: dated=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Path=/",
        "Set-Cookie: plain=2; Path=/; HttpOnly",
        "Set-Cookie: odd=3; Max-Age=+60; Expires=Fri, 01 Jan 2100 00:00:00 GMT",
        "Set-Cookie: gone=4; Max-Age=-1",
      ])

    #expect(
      answer == [
        Read(value: "1", expiry: .at(Date(timeIntervalSince1970: 4_102_444_800))),
        Read(value: "2", expiry: .unknown),
        Read(value: "3", expiry: .at(Date(timeIntervalSince1970: 4_102_444_800))),
        Read(value: "4", expiry: .after(seconds: -1)),
      ])
  }

  @Test("a Set-Cookie whose expiry ends in an accent gives no cookie, and reading it stops nothing")
  func accentedExpiry() async throws {
    // On Linux, `HTTPCookie` traps on this date: the process would end here.
    let answer = try await Self.cookies(
      named: ["session"],
      setBy: ["Set-Cookie: session=abc; Expires=Sun, 06 Nov 1994 08:49:37 GMT\u{301}; Path=/"])

    #expect(answer == [nil])
  }

  @Test("a Set-Cookie line that is not all ASCII is dropped alone: the other lines of its answer are read")
  func nonASCIILineAlone() async throws {
    let answer = try await Self.cookies(
      named: ["session", "pref", "late"],
      setBy: [
        "Set-Cookie: session=abc; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Path=/",
        "Set-Cookie: pref=caf\u{e9}; Path=/",
        "Set-Cookie: late=1; Expires=Sun, 06 Nov 1994 08:49:37 GMT\u{301}; Path=/",
      ])

    #expect(
      answer == [Read(value: "abc", expiry: .at(Date(timeIntervalSince1970: 4_102_444_800))), nil, nil])
  }

  /// Each cookie named in `names`, as `cookie(named:)` reads it from an answer with the header
  /// lines `headers`, sent by the server as written.
  private static func cookies(named names: [String], setBy headers: [String]) async throws -> [Read?] {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())
      let reply =
        "HTTP/1.1 200 OK\r\n" + headers.map { $0 + "\r\n" }.joined()
        + "Content-Length: 0\r\nConnection: close\r\n\r\n"
      let signIn = Endpoint<Data>.raw(
        path: ["_probe", "raw"], query: [URLQueryItem(name: "reply", value: reply)])
      return try await client.send(
        signIn.map { _, response in
          names.map { name in
            response.cookie(named: name).map { Read(value: $0.value, expiry: $0.expiry) }
          }
        })
    }
  }
}
