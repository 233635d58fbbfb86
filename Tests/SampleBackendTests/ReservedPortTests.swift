import Foundation
import LayeredTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("A reserved loopback port", .timeLimit(.minutes(1)))
struct ReservedPortTests {
  @Test(
    "refuses connections until a server starts on it, and again once that server stops; a new one serves it"
  )
  func servedAndTakenAway() async throws {
    guard LoopbackSampleAPI.shouldRun else { try Test.cancel(LoopbackSampleAPI.skipReason) }
    let port = try ReservedLoopbackPort()
    let connection = SampleBackendConnection(baseURL: port.baseURL, session: .loopbackTesting())

    #expect(try await Self.refusal(of: connection) == .cannotConnectToHost, "before any server")
    for round in 1...2 {
      let server = try await LoopbackSampleAPI.start(on: port)
      #expect(server.baseURL == port.baseURL)
      // Counted by a server that has seen nothing else: the fresh one started on the port.
      _ = try await connection.raw("GET", "/todos")
      #expect(try await connection.counters().requests == 1, "round \(round)")
      await server.stop()
      #expect(try await Self.refusal(of: connection) == .cannotConnectToHost, "after round \(round)")
    }
  }

  /// The URL error a request for the counters ends with; `nil` if it was answered.
  private static func refusal(of connection: SampleBackendConnection) async throws -> URLError.Code? {
    do {
      _ = try await connection.counters()
      return nil
    } catch let error as URLError {
      return error.code
    }
  }
}
