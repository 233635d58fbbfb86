import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// `map` and `decoding(as:)` change how an answer is read and nothing about what is sent.
@Suite("Retyping an endpoint")
struct EndpointRetypingTests {
  private struct Wrapper: Decodable, Equatable, Sendable { let value: Int }

  /// An endpoint with every request property away from its default.
  private func configured() -> Endpoint<Data> {
    var endpoint = Endpoint.raw(
      method: .put, path: ["items", "a b"], query: [URLQueryItem(name: "q", value: "1")],
      headers: ["X-Trace": "t"], body: .json(["k": "v"]), accept: "application/json",
      acceptableStatusCodes: 200..<201, isIdempotent: false)
    endpoint.endsWithSlash = true
    endpoint.maximumResponseSize = 64
    endpoint.credentials = ["s3cret"]
    endpoint.followsRedirects = false
    return endpoint
  }

  @Test("a mapped and a re-decoded endpoint send the request the original sends, byte for byte")
  func sameRequest() async throws {
    let seen = Locked<[InProcessRequest]>([])
    let mount = InProcessTransport(
      StubHandler { request in
        seen.withLock { $0.append(request) }
        return .respond(
          InProcessResponse(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"value":1}"#.utf8)))
      })
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let original = configured()
    _ = try await client.send(original)
    _ = try await client.send(original.map { $0.count })
    _ = try await client.send(original.decoding(as: Wrapper.self))

    let requests = seen.withLock { $0 }
    try #require(requests.count == 3)
    for request in requests.dropFirst() {
      #expect(request.method == requests[0].method)
      #expect(request.percentEncodedPath == requests[0].percentEncodedPath)
      #expect(request.query == requests[0].query)
      #expect(request.headers == requests[0].headers)
      #expect(request.body == requests[0].body)
    }
    #expect(requests[0].method == "PUT")
    #expect(requests[0].percentEncodedPath.hasSuffix("/items/a%20b/"))
  }

  @Test("a retyped endpoint keeps the original's size limit and status range")
  func sameLimits() async throws {
    let mount = StubHandler.transport(status: 200, body: String(repeating: " ", count: 100) + "{}")
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let tooLarge = await client.outcome(configured().decoding(as: Wrapper.self))
    #expect(tooLarge == .failure(.responseTooLarge(limit: 64)))

    let created = StubHandler.transport(status: 201, body: #"{"value":1}"#)
    let strict = URLSessionHTTPClient(baseURL: created.baseURL, transport: created)
    let refused = await strict.outcome(configured().map { $0.count })
    guard case .failure(.badStatus(201, _)) = refused else {
      Issue.record("expected the original's status range to refuse 201, got \(refused)")
      return
    }
  }

  @Test("a retyped endpoint keeps whether it follows redirects")
  func sameRedirectRule() {
    #expect(!configured().map { $0.count }.followsRedirects)
    #expect(!configured().decoding(as: Wrapper.self).followsRedirects)
  }
}
