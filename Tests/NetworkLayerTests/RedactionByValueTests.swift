import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Redacting URLs, API keys and a request's own secrets")
struct RedactionByValueTests {
  @Test(
    "a URL loses its user-info and the values of credential query items, and keeps the rest",
    arguments: [
      ("https://demo:pw-1234@h.example/v1/x", "https://<redacted>@h.example/v1/x"),
      (
        "https://h.example/x?access_token=t1234&page=2&key=k1234",
        "https://h.example/x?access_token=<redacted>&page=2&key=<redacted>"
      ),
      (
        "https://h.example/x?X-Amz-Signature=s1234&X-Amz-Date=20261122&api_key=a1&client_secret=c1",
        "https://h.example/x?X-Amz-Signature=<redacted>&X-Amz-Date=20261122&api_key=<redacted>&client_secret=<redacted>"
      ),
      (
        "https://h.example/x?password=p&secret=s&sig=x&token=y#top",
        "https://h.example/x?password=<redacted>&secret=<redacted>&sig=<redacted>&token=<redacted>#top"
      ),
      ("https://h.example/x?monkey=1&tokenType=bearer", "https://h.example/x?monkey=1&tokenType=bearer"),
      (
        "https://h.example/x?appid=owm1234&q=London&auth=fb-id-token&access_key=ak1234&subscription-key=az1234",
        "https://h.example/x?appid=<redacted>&q=London&auth=<redacted>&access_key=<redacted>&subscription-key=<redacted>"
      ),
    ]
  )
  func urls(url: String, expected: String) throws {
    #expect(Redactor.redact(url: try #require(URL(string: url))) == expected)
  }

  @Test(
    "API-key and token headers are replaced whole",
    arguments: [
      "X-Api-Key", "api-key", "X-Auth-Token", "X-Refresh-Token", "X-CSRF-Token", "X-Amz-Security-Token",
      "Ocp-Apim-Subscription-Key", "X-Master-Key", "X-Client-Key",
    ]
  )
  func apiKeyHeaders(name: String) {
    #expect(Redactor.redact(headers: [name: "k-12345678"]) == [name: "<redacted>"])
  }

  @Test(
    "a header named like a key that holds no secret is shown", arguments: ["Idempotency-Key", "X-Keyword"])
  func keyNamedHeadersWithoutSecrets(name: String) {
    #expect(Redactor.redact(headers: [name: "k-12345678"]) == [name: "k-12345678"])
  }

  @Test("a summary removes the request's own secrets wherever they appear, by value")
  func summaryByValue() throws {
    var request = URLRequest(url: try #require(URL(string: "https://h.example/echo/tok-abcdef?q=tok-abcdef")))
    request.setValue("Bearer tok-abcdef", forHTTPHeaderField: "Authorization")
    request.setValue("copy tok-abcdef", forHTTPHeaderField: "X-Debug")
    request.httpBody = Data(#"{"password":"pw-98765","note":"pw-98765 and tok-abcdef"}"#.utf8)
    let summary = RequestSummary(callID: 1, attempt: 1, request: request)
    let text = [summary.url, summary.body ?? ""] + summary.headers.map { "\($0.key): \($0.value)" }
    for line in text {
      #expect(!line.contains("tok-abcdef"), "the bearer token leaked: \(line)")
      #expect(!line.contains("pw-98765"), "the password leaked: \(line)")
    }
    #expect(summary.headers["X-Debug"] == "copy <redacted>")
  }

  @Test("a secret the endpoint names is removed from the log where its path carries it, as a segment")
  func secretInPathSegment() async throws {
    let secret = "reset:tok@en 12345"
    let lines = Locked<[String]>([])
    let mount = StubHandler.transport(status: 200, body: "{}")
    let client = URLSessionHTTPClient(
      baseURL: mount.baseURL, transport: mount,
      monitors: [ConsoleEventMonitor(verbose: true) { line in lines.withLock { $0.append(line) } }])
    var endpoint = Endpoint<NoContent>(method: .post, path: ["passwords", secret])
    endpoint.credentials = [secret]
    _ = try await client.send(endpoint)

    let log = lines.withLock { $0.joined(separator: "\n") }
    #expect(log.contains("/passwords/"), "the request was logged: \(log)")
    #expect(!log.contains("tok@en"), "the secret's path form leaked: \(log)")
  }

  @Test("an error excerpt cut in the middle of an echoed token keeps none of it")
  func excerptCutMidToken() async throws {
    let token = "at-" + String(repeating: "z", count: 60)
    let mount = InProcessTransport(
      StubHandler { request in
        let echoed = String(repeating: "n", count: 190) + (request.header("Authorization") ?? "")
        return .respond(
          InProcessResponse(status: 500, headers: ["Content-Type": "text/plain"], body: Data(echoed.utf8)))
      })
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let result = await client.outcome(
      Endpoint<[TestTodo]>(path: ["todos"], headers: ["Authorization": "Bearer \(token)"]))
    guard case .failure(let error) = result else {
      Issue.record("expected a failure")
      return
    }
    #expect(!error.description.contains("zzzz"), "part of the token leaked: \(error.description)")
    #expect(error.description.contains("nnnn"))
  }

  @Test(
    "a transport error says what happened in words and keeps the code",
    arguments: [
      (URLError.Code.cannotConnectToHost, "connection refused"),
      (.cannotFindHost, "host not found"),
      (.networkConnectionLost, "connection lost"),
      (.timedOut, "timed out"),
      (.notConnectedToInternet, "not connected to the internet"),
      (.badServerResponse, "connection closed before a valid response"),
      (.secureConnectionFailed, "secure connection failed"),
    ]
  )
  func transportWords(code: URLError.Code, words: String) {
    let description = NetworkError.transport(code: code.rawValue).description
    #expect(description.contains(words))
    #expect(description.contains("\(code.rawValue)"))
  }

  @Test("an error's localized description is its description, through any Error")
  func localizedDescription() {
    let errors: [NetworkError] = [
      .transport(code: URLError.Code.cannotConnectToHost.rawValue),
      .badStatus(code: 503, bodyExcerpt: "busy"),
      .timeout, .decodingFailed(path: "[0].title", reason: "missing"),
    ]
    for error in errors {
      let anyError: any Error = error
      #expect(anyError.localizedDescription == error.description)
    }
  }
}
