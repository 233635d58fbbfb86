import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Backends name their tokens in many ways. Whatever the field is called among the common names,
/// its value never reaches a monitor's text: not in the request body a verbose monitor prints,
/// and not in the excerpt of an error body the server sends back.
@Suite("Token fields as backends name them")
struct TokenFieldRedactionTests {
  private struct Refresh: Encodable, Sendable {
    let refresh: String
  }

  @Test(
    "a token field is redacted in what a verbose monitor prints, by any common name",
    arguments: [
      "access", "refresh", "access_token", "refresh_token", "id_token", "token", "password",
      "client_secret", "jwt", "sessionid", "session_id", "PHPSESSID", "JSESSIONID", "sessionKey",
      "session_key", "sid", "assertion", "client_assertion",
    ]
  )
  func commonNames(name: String) async throws {
    let sent = "sent-\(name)-secret-1"
    let echoed = "echoed-\(name)-secret-2"
    let mount = StubHandler.transport(status: 400, body: #"{"\#(name)":"\#(echoed)","detail":"refused"}"#)
    let lines = Locked<[String]>([])
    let client = URLSessionHTTPClient(
      baseURL: mount.baseURL, transport: mount,
      monitors: [ConsoleEventMonitor(verbose: true) { text in lines.withLock { $0.append(text) } }]
    )
    let body = try #require(#"{"\#(name)":"\#(sent)","user":"demo"}"#.data(using: .utf8))
    let endpoint = Endpoint<Data>.raw(
      method: .post, path: ["api", "token"], body: .data(body, contentType: "application/json"))

    _ = try? await client.send(endpoint)

    let printed = lines.withLock { $0 }.joined(separator: "\n")
    #expect(printed.contains("POST"), "the monitor printed nothing: \(printed)")
    #expect(printed.contains(#""user":"demo""#), "the request body was not printed: \(printed)")
    #expect(printed.contains("refused"), "the error body was not printed: \(printed)")
    #expect(!printed.contains(sent), "\(sent) leaked in \(printed)")
    #expect(!printed.contains(echoed), "\(echoed) leaked in \(printed)")
  }
}
