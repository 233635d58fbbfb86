import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

/// Form bodies as the loopback server's form parser reads them.
@Suite(
  "Form bodies against the loopback server",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
)
struct FormBodyTests {
  private struct Echo: Decodable, Sendable {
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
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: connection.session)

      _ = try await client.send(Endpoint<Echo>(method: .post, path: ["_probe", "echo"], body: .form(fields)))

      let received = try #require(try await connection.probeLog().received.first)
      #expect(received.headers["content-type"] == "application/x-www-form-urlencoded")
      #expect(received.form == fields.map { [$0.name, $0.value ?? ""] })
    }
  }

  @Test("a field without a value is sent as its name alone")
  func nameAlone() async throws {
    try await LoopbackSampleAPI.with { server in
      let connection = SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting())
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: connection.session)
      let fields = [URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "a b", value: "1")]

      _ = try await client.send(Endpoint<Echo>(method: .post, path: ["_probe", "echo"], body: .form(fields)))

      let received = try #require(try await connection.probeLog().received.first)
      #expect(received.body == "flag&a%20b=1")
      #expect(received.form == [["flag", ""], ["a b", "1"]])
    }
  }

  @Test("a form body's credentials never appear in the error of a server that echoes the body")
  func echoedCredentials() async throws {
    let password = "pw form/secret+7 é"
    let refreshToken = "rt-form-secret-99"
    try await LoopbackSampleAPI.with { server in
      let client = URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting())
      let endpoint = Endpoint<Echo>(
        method: .post,
        path: ["_control", "echo"],
        query: [URLQueryItem(name: "status", value: "400"), URLQueryItem(name: "part", value: "body")],
        body: .form([
          URLQueryItem(name: "username", value: "demo"),
          URLQueryItem(name: "password", value: password),
          URLQueryItem(name: "refresh_token", value: refreshToken),
          URLQueryItem(name: "note", value: "keep me"),
        ])
      )

      let result = await client.outcome(endpoint)

      guard case .failure(let error) = result, case .badStatus(400, let excerpt?) = error else {
        Issue.record("expected the echo's 400, got \(result)")
        return
      }
      for secret in [password, refreshToken, "pw%20form%2Fsecret%2B7%20%C3%A9", "secret"] {
        #expect(!error.description.contains(secret), "\(secret) leaked into \(error.description)")
      }
      #expect(excerpt.contains("keep%20me"), "what is not secret stays readable: \(excerpt)")
    }
  }
}
