import Foundation

extension SampleAPI {
  /// Adds a route served next to the built-in ones, with the same dispatch: the same 404 and
  /// 405 answers, counters, faults and, for an `authenticated` route, the same bearer check as
  /// the todo routes. Routes are code, not state: `POST /_control/reset` keeps them.
  ///
  /// - Throws: ``SampleRoute/Conflict`` when a built-in or registered route already answers the
  ///   same method on the same template (parameter names aside); nothing is replaced.
  public func register(_ route: SampleRoute) throws(SampleRoute.Conflict) {
    let builtIn = builtInRoutes
    let added = extraRoutes.withLock { extras -> Bool in
      guard !(builtIn + extras).contains(where: { $0.clashes(with: route) }) else { return false }
      extras.append(route)
      return true
    }
    guard added else { throw SampleRoute.Conflict(route: "\(route.method) \(route.path)") }
  }

  /// Every route served, built-in first, in the order they are matched.
  var routeTable: [SampleRoute] {
    builtInRoutes + extraRoutes.withLock { $0 }
  }

  /// Dispatches a request by the route table. The order of the checks is the contract's:
  /// an unknown path is 404, a known path with another method 405 (with `Allow`), then the
  /// bearer check of an authenticated route (401), and only then the handler, which decides
  /// about ids (404) and bodies (400). So a protected collection never tells a caller without a
  /// valid token which ids exist or are well-formed.
  func route(_ request: InProcessRequest) async -> InProcessResponse {
    var allowed: Set<String> = []
    for route in routeTable {
      guard let parameters = route.match(request.pathSegments) else { continue }
      guard route.method == request.method else {
        allowed.insert(route.method)
        continue
      }
      if route.authenticated, let refusal = authorize(request) { return refusal }
      return await route.handler(SampleRouteRequest(request: request, parameters: parameters))
    }
    guard allowed.isEmpty else {
      var response = InProcessResponse.error(405, "method not allowed")
      response.headers["Allow"] = allowed.sorted().joined(separator: ", ")
      return response
    }
    return .error(404, "not found")
  }

  /// `nil` when the request may go on; a 401 response when it needs a valid bearer token.
  private func authorize(_ request: InProcessRequest) -> InProcessResponse? {
    let now = Date()
    return state.withLock { state in
      guard state.config.requireAuth else { return nil }
      guard let token = Self.bearerToken(in: request.header("Authorization")) else {
        return .unauthorized(challenge: "Bearer")
      }
      guard let expiry = state.accessTokens[token], now < expiry else {
        return .unauthorized(challenge: #"Bearer error="invalid_token""#)
      }
      return nil
    }
  }

  /// The token of an `Authorization: Bearer <token>` header; `nil` for any other scheme.
  private static func bearerToken(in header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    let token = parts[1].trimmingCharacters(in: .whitespaces)
    return token.isEmpty ? nil : token
  }
}

/// One row of `GET /_control/routes`.
struct RouteDescription: Codable, Sendable, Hashable {
  var method: String
  var path: String
  var authenticated: Bool
}
