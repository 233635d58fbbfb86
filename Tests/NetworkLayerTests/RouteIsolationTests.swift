import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("A path value cannot reach another route, on either backend")
struct RouteIsolationTests {
  @Test(
    "segments that would resolve to a real route are answered as the literal path: 404",
    arguments: SampleBackendKind.allCases,
    [
      ["articles", "x", "..", "today"],
      ["todos", "1", ".."],
      ["todos/1"],
      ["articles", "today", "."],
      ["%2E%2E", "articles", "today"],
    ]
  )
  func literalSegments(backend: SampleBackendKind, path: [String]) async throws {
    try await backend.with { connection in
      try await connection.configure(requireAuth: false)
      let client = URLSessionHTTPClient(baseURL: connection.baseURL, transport: connection.transport)
      let result = await client.outcome(Endpoint.raw(path: path))
      guard case .failure(.badStatus(404, _)) = result else {
        Issue.record("expected 404 for \(path), got \(result)")
        return
      }
      let counters = try await connection.counters()
      #expect(counters.paths["GET /articles/today"] == nil)
      #expect(counters.paths["GET /todos"] == nil)
      #expect(counters.paths["GET /todos/1"] == nil)
    }
  }
}
