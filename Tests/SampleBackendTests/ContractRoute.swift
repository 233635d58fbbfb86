/// One route of the sample API's contract, as the route-table tests know it.
///
/// ``all`` is the one list of routes: every case of ``RouteCase`` is generated from it for both
/// servers, and each server's own table (`GET /_control/routes`) must equal it, so a route added
/// to either server fails the tests until it is listed here, and is covered from then on.
struct ContractRoute: Sendable, Hashable, CustomStringConvertible {
  let method: String
  /// The template, with `{id}` for a todo id.
  let path: String
  let authenticated: Bool
  /// A body the route accepts; `{refreshToken}` is replaced by a fresh refresh token.
  let validBody: String?
  /// The status of the happy path.
  let successStatus: Int
  /// What the collection's string ids start with, before `-` and the number (`api-key-1`), or
  /// `nil` for ids that are numbers.
  var idPrefix: String? = nil

  var description: String { "\(method) \(path)" }
  var hasID: Bool { path.contains("{id}") }

  static let all: [ContractRoute] = [
    .init(method: "GET", path: "/todos", authenticated: true, validBody: nil, successStatus: 200),
    .init(
      method: "POST", path: "/todos", authenticated: true, validBody: #"{"title": "Water the plants"}"#,
      successStatus: 201),
    .init(method: "GET", path: "/todos/{id}", authenticated: true, validBody: nil, successStatus: 200),
    .init(
      method: "PATCH", path: "/todos/{id}", authenticated: true, validBody: #"{"completed": true}"#,
      successStatus: 200),
    .init(method: "DELETE", path: "/todos/{id}", authenticated: true, validBody: nil, successStatus: 204),
    .init(method: "GET", path: "/articles/today", authenticated: false, validBody: nil, successStatus: 200),
    .init(
      method: "POST", path: "/auth/login", authenticated: false,
      validBody: #"{"username": "demo", "password": "correct-horse-battery-staple"}"#, successStatus: 200),
    .init(
      method: "POST", path: "/auth/refresh", authenticated: false,
      validBody: #"{"refreshToken": "{refreshToken}"}"#, successStatus: 200),
    // new-feature: routes
  ]

  /// The cases that apply to this route: id cases only where the template has an id, the
  /// malformed body only where the route takes one.
  var cases: [RouteCase] {
    RouteCase.allCases.filter { routeCase in
      switch routeCase {
      case .unknownID, .nonNumericIDWithoutToken, .nonNumericID: hasID
      case .malformedBody: validBody != nil
      default: true
      }
    }
  }
}

/// What one generated request tries, and the answer the contract promises for it.
///
/// The precedence, the same in both servers: unknown path 404, other method 405, then the bearer
/// check of a protected route (401), then the route's own checks: unknown or non-numeric id 404,
/// malformed body 400.
enum RouteCase: String, CaseIterable, Sendable {
  case noToken, badToken, expiredToken, unknownID, nonNumericIDWithoutToken, nonNumericID
  case malformedBody, happyPath

  enum Token { case none, unknown, expired, valid }

  var token: Token {
    switch self {
    case .noToken, .nonNumericIDWithoutToken: .none
    case .badToken: .unknown
    case .expiredToken: .expired
    case .unknownID, .nonNumericID, .malformedBody, .happyPath: .valid
    }
  }

  /// What stands for `{id}`: a seeded todo, one that does not exist, or not a number at all.
  var id: String {
    switch self {
    case .unknownID: "9999"
    case .nonNumericIDWithoutToken, .nonNumericID: "abc"
    default: "1"
    }
  }

  var sendsMalformedBody: Bool { self == .malformedBody }

  /// The status the contract promises, and for a 401 the challenge.
  func expected(for route: ContractRoute) -> (status: Int, challenge: String?) {
    if route.authenticated {
      switch token {
      case .none: return (401, "Bearer")
      case .unknown, .expired: return (401, #"Bearer error="invalid_token""#)
      case .valid: break
      }
    }
    switch self {
    case .unknownID, .nonNumericIDWithoutToken, .nonNumericID: return (404, nil)
    case .malformedBody: return (400, nil)
    default: return (route.successStatus, nil)
    }
  }
}
