import Foundation
import LayeredTestSupport

/// Sends every case of every route in ``ContractRoute/all`` to one server and records the answers.
///
/// Each route starts from the seed state (`POST /_control/reset`), so the cases of one route
/// cannot change what another sees, and both servers get exactly the same requests.
struct RouteContractRun {
  struct Answer: Sendable {
    let route: ContractRoute
    let routeCase: RouteCase
    let status: Int
    let headers: [String: String]
    let body: Data
    /// Comparable across servers; see ``ContractTranscript/line(_:_:status:headers:body:)``.
    let line: String
  }

  let connection: SampleBackendConnection

  func answers() async throws -> [Answer] {
    var answers: [Answer] = []
    for route in ContractRoute.all {
      _ = try await connection.raw("POST", "/_control/reset")
      try await connection.configure(tokenLifetime: 0)
      let expired = try await logIn().accessToken
      try await connection.configure(tokenLifetime: 3600)
      let valid = try await logIn().accessToken
      for routeCase in route.cases {
        var headers: [String: String] = [:]
        switch routeCase.token {
        case .none: break
        case .unknown: headers["Authorization"] = "Bearer at-unknown"
        case .expired: headers["Authorization"] = "Bearer \(expired)"
        case .valid: headers["Authorization"] = "Bearer \(valid)"
        }
        let id = route.idPrefix.map { "\($0)-\(routeCase.id)" } ?? routeCase.id
        let path = route.path.replacingOccurrences(of: "{id}", with: id)
        let body = try await body(for: route, routeCase)
        let response = try await connection.raw(
          route.method, path, body: body.map { Data($0.utf8) }, headers: headers)
        let line = try ContractTranscript.line(
          route.method, path, status: response.status, headers: response.headers, body: response.body)
        answers.append(
          Answer(
            route: route, routeCase: routeCase, status: response.status, headers: response.headers,
            body: response.body, line: "\(routeCase.rawValue): \(line)"))
      }
    }
    return answers
  }

  private func body(for route: ContractRoute, _ routeCase: RouteCase) async throws -> String? {
    guard let valid = route.validBody else { return nil }
    if routeCase.sendsMalformedBody { return "not json" }
    guard valid.contains("{refreshToken}") else { return valid }
    // A refresh token is spent by its first use, so every request gets a fresh one.
    return valid.replacingOccurrences(of: "{refreshToken}", with: try await logIn().refreshToken)
  }

  private struct Tokens: Decodable {
    var accessToken: String
    var refreshToken: String
  }

  private func logIn() async throws -> Tokens {
    let response = try await connection.raw(
      "POST", "/auth/login",
      body: Data(#"{"username": "demo", "password": "correct-horse-battery-staple"}"#.utf8))
    guard response.status == 200 else {
      throw SampleBackendConnection.ControlError(description: "login answered \(response.status)")
    }
    return try JSONDecoder().decode(Tokens.self, from: response.body)
  }
}
