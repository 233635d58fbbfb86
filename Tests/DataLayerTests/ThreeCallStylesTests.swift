import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// Seed scenario 4: one request made three ways gives one answer.
@Suite("Three call styles, one core")
struct ThreeCallStylesTests {
  enum Scenario: String, CaseIterable, Sendable {
    case success, invalidURL, badStatus, noData, decodingFailed, transport
  }

  private static func client(for scenario: Scenario) -> (URLSessionHTTPClient, InProcessTransport) {
    let json = #"[{"userId":1,"id":1,"title":"a","completed":false}]"#
    let mount: InProcessTransport =
      switch scenario {
      case .success, .invalidURL: StubHandler.transport(status: 200, body: json)
      case .badStatus: StubHandler.transport(status: 500, body: #"{"error":"boom"}"#)
      case .noData: StubHandler.transport(status: 200, body: "")
      case .decodingFailed: StubHandler.transport(status: 200, body: "{not json")
      case .transport: InProcessTransport(StubHandler { _ in .fail(.notConnectedToInternet) })
      }
    let baseURL = scenario == .invalidURL ? URL(fileURLWithPath: "/not/http") : mount.baseURL
    return (URLSessionHTTPClient(baseURL: baseURL, transport: mount), mount)
  }

  @Test(
    "seed scenario 4: completion handler, async/await and stream give the same result",
    arguments: Scenario.allCases)
  func sameOutcome(scenario: Scenario) async throws {
    let (client, _) = Self.client(for: scenario)
    let endpoint = Endpoint<[TodoDTO]>(path: ["todos"])

    let viaAsync: Result<[TodoDTO], NetworkError>
    do throws(NetworkError) {
      viaAsync = .success(try await client.send(endpoint))
    } catch {
      viaAsync = .failure(error)
    }

    let viaCompletion = await withCheckedContinuation { continuation in
      client.send(endpoint) { result in continuation.resume(returning: result) }
    }

    var viaStream: [Result<[TodoDTO], NetworkError>] = []
    for await outcome in OutcomeStream.outcome(of: { () async throws(NetworkError) in
      try await client.send(endpoint)
    }) {
      viaStream.append(outcome)
    }

    #expect(viaCompletion == viaAsync)
    #expect(viaStream == [viaAsync])
    #expect(Self.matches(viaAsync, scenario), "\(scenario) gave \(viaAsync)")
  }

  @Test("cancelling a completion-handler request delivers cancelled")
  func completionCancellation() async {
    let mount = InProcessTransport(
      StubHandler { _ in
        try? await Task.sleep(for: .seconds(600))
        return .fail(.cancelled)
      }
    )
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let result = await withCheckedContinuation { continuation in
      let handle = client.send(Endpoint<[TodoDTO]>(path: ["todos"])) { continuation.resume(returning: $0) }
      handle.cancel()
    }
    #expect(result == .failure(.cancelled))
  }

  private static func matches(_ result: Result<[TodoDTO], NetworkError>, _ scenario: Scenario) -> Bool {
    switch (scenario, result) {
    case (.success, .success(let todos)): todos.count == 1
    case (.invalidURL, .failure(.invalidURL)): true
    case (.badStatus, .failure(.badStatus(500, _))): true
    case (.noData, .failure(.noData)): true
    case (.decodingFailed, .failure(.decodingFailed)): true
    case (.transport, .failure(.transport(let code))): code == URLError.Code.notConnectedToInternet.rawValue
    default: false
    }
  }
}
