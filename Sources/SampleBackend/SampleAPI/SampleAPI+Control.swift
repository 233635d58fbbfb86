import Foundation

extension SampleAPI {
  /// The `/_control/` hooks tests use to shape and observe the API. They are never counted,
  /// faulted or protected.
  func control(_ request: InProcessRequest) -> InProcessResponse {
    switch (request.method, request.path) {
    case ("POST", "/_control/reset"):
      state.withLock { $0 = SampleAPIState() }
      return InProcessResponse(status: 204)
    case ("GET", "/_control/config"):
      return .json(200, state.withLock { $0.config })
    case ("POST", "/_control/config"):
      let lifetime: Double?
      let requireAuth: Bool?
      do throws(JSONObjectReader.Rejection) {
        let body = try JSONObjectReader(request.body)
        lifetime = try body.nonNegativeNumber("tokenLifetime")
        requireAuth = try body.boolean("requireAuth")
      } catch {
        return .error(error.status, error.message)
      }
      let config = state.withLock { state in
        if let lifetime { state.config.tokenLifetime = lifetime }
        if let requireAuth { state.config.requireAuth = requireAuth }
        return state.config
      }
      return .json(200, config)
    case ("POST", "/_control/faults"):
      guard let fault = try? JSONDecoder().decode(SampleFault.self, from: request.body) else {
        return .error(400, "body must be a fault object with a path")
      }
      if let problem = fault.validationProblem { return .error(400, problem) }
      state.withLock { $0.faults.append(fault) }
      return .json(201, fault)
    case ("DELETE", "/_control/faults"):
      state.withLock { $0.faults.removeAll() }
      return InProcessResponse(status: 204)
    case ("POST", "/_control/release"):
      return .json(200, ["released": delays.releaseAll()])
    case ("POST", "/_control/revoke"):
      // Every access token issued so far becomes unknown; refresh tokens keep working.
      let revoked = state.withLock { state in
        let count = state.accessTokens.count
        state.accessTokens.removeAll()
        return count
      }
      return .json(200, ["revoked": revoked])
    case ("GET", "/_control/routes"):
      let table = routeTable.map {
        RouteDescription(method: $0.method, path: $0.path, authenticated: $0.authenticated)
      }
      return .json(200, table)
    case ("GET", "/_control/counters"):
      return .json(200, state.withLock { $0.counters })
    default:
      return .error(404, "not found")
    }
  }
}
