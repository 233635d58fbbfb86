import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// Measures what one in-process request costs through the client, so that a change of transport
/// can be compared with the one before. It prints its figure and asserts nothing about time: the
/// machine is shared and noisy. Enabled with `LAYERED_MEASURE=1`.
@Suite(
  "Transport cost",
  .enabled(
    if: ProcessInfo.processInfo.environment["LAYERED_MEASURE"] != nil, "set LAYERED_MEASURE=1 to measure")
)
struct TransportCostTests {
  @Test("2,000 sequential in-process requests, timed")
  func sequentialRequests() async throws {
    let body = Data(#"{"userId":1,"id":1,"title":"a","completed":true}"#.utf8)
    let mount = InProcessURLProtocol.mount(
      StubHandler { _ in
        .respond(InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: body))
      })
    defer { mount.unmount() }
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, session: mount.makeSession())
    let endpoint = Endpoint<TestTodo>(path: ["todos", "1"])
    for _ in 0..<100 { _ = try await client.send(endpoint) }
    let count = 2_000
    let started = ContinuousClock.now
    for _ in 0..<count { _ = try await client.send(endpoint) }
    let elapsed = ContinuousClock.now - started
    let perRequest = elapsed / count
    print("transport cost: \(count) requests in \(elapsed), \(perRequest) per request")
  }
}
