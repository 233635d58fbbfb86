import Foundation
import LayeredTestSupport
import Testing

/// The contract over the whole route table: every route of ``ContractRoute/all`` gets every case
/// that applies to it (no token, unknown token, expired token, unknown id, non-numeric id with
/// and without a token, malformed body, happy path), from both servers.
@Suite("Sample API contract over the route table")
struct RouteContractTests {
  private struct RouteRow: Decodable, Hashable {
    var method: String
    var path: String
    var authenticated: Bool
  }

  @Test(
    "the contract's route list is exactly the table the server serves", arguments: SampleBackendKind.allCases)
  func routeListMatchesServer(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let response = try await connection.raw("GET", "/_control/routes")
      #expect(response.status == 200)
      let served = try JSONDecoder().decode([RouteRow].self, from: response.body)
      let listed = ContractRoute.all.map {
        RouteRow(method: $0.method, path: $0.path, authenticated: $0.authenticated)
      }
      #expect(served == listed)
    }
  }

  @Test(
    "every route answers every case with the status, challenge and error shape the contract promises",
    arguments: SampleBackendKind.allCases
  )
  func everyCaseAsPromised(kind: SampleBackendKind) async throws {
    let answers = try await kind.with { try await RouteContractRun(connection: $0).answers() }
    // Outside #expect: inferred inside the macro's expansion, the sum is slow to type-check.
    let caseCount: Int = ContractRoute.all.reduce(0) { $0 + $1.cases.count }
    #expect(answers.count == caseCount)
    for answer in answers {
      let expected = answer.routeCase.expected(for: answer.route)
      let label = "\(answer.routeCase.rawValue) on \(answer.route)"
      #expect(answer.status == expected.status, "\(label)")
      #expect(answer.headers["www-authenticate"] == expected.challenge, "\(label)")
      if answer.status >= 400 {
        #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(label)")
        let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
        #expect(object?.keys.sorted() == ["error"], "\(label)")
        #expect(object?["error"] is String, "\(label)")
      }
    }
  }

  @Test(
    "without a token a non-numeric todo id is 401 from both servers: authentication comes before ids",
    arguments: SampleBackendKind.allCases
  )
  func authenticationBeforeIDs(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let response = try await connection.raw("GET", "/todos/abc")
      #expect(response.status == 401)
      #expect(response.headers["www-authenticate"] == "Bearer")
    }
  }

  @Test(
    "the embedded API and the Python server answer every case of every route identically",
    .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
  )
  func bothServersAgree() async throws {
    let embedded = try await SampleBackendKind.embedded.with {
      try await RouteContractRun(connection: $0).answers()
    }
    let loopback = try await SampleBackendKind.loopback.with {
      try await RouteContractRun(connection: $0).answers()
    }
    #expect(embedded.count == loopback.count)
    for (mine, theirs) in zip(embedded, loopback) {
      #expect(mine.line == theirs.line)
    }
  }
}
