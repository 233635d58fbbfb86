import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Response headers whose dates end in a combining accent, sent byte for byte by the Python
/// server's raw probe. swift-corelibs-foundation's `DateFormatter` traps when its parse stops
/// inside a character, so a client that hands such a date to it can be ended by any server.
@Suite(
  "Dates in response headers that Foundation's date parser traps on",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct TrappingDateHeaderTests {
  /// An IMF-fixdate with U+0301 after "GMT", as UTF-8 on the wire.
  private static let accentedDate = "Sun, 06 Nov 1994 08:49:37 GMT\u{301}"

  @Test(
    "a Retry-After whose date ends in an accent is no advice: the call retries on its own backoff and ends with the 503"
  )
  func accentedRetryAfter() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(
        baseURL: server.baseURL, session: .loopbackTesting(),
        interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1))])

      let result = await client.outcome(
        Self.raw(status: "503 Service Unavailable", header: "Retry-After: \(Self.accentedDate)"))

      #expect(result == .failure(.badStatus(code: 503, bodyExcerpt: nil)))
      let attempts = try await connection.received().filter { $0.line.hasPrefix("GET /_probe/raw") }
      #expect(attempts.count == 3, "every attempt reached the server")
    }
  }

  @Test(
    "a Set-Cookie whose expiry ends in an accent reaches no cookie parser when the client keeps no cookies"
  )
  func accentedCookieExpiry() async throws {
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())

      let result = await client.outcome(
        Self.raw(
          status: "200 OK", header: "Set-Cookie: session=abc; Expires=\(Self.accentedDate); Path=/",
          body: "ok"))

      #expect(result == .success(Data("ok".utf8)))
    }
  }

  /// The raw probe's endpoint, answering `status` with `header` and `body`, then closing.
  private static func raw(status: String, header: String, body: String = "") -> Endpoint<Data> {
    .rawProbe(replying: RawReply.closing(status: status, header: header, body: body))
  }
}
