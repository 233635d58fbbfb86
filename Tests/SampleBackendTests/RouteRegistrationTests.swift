import Foundation
import LayeredTestSupport
import SampleBackend
import Testing

/// Routes registered from outside go through the same dispatch as the contract's own.
@Suite("Registered sample API routes")
struct RouteRegistrationTests {
  private struct Echo: Codable {
    var note: String
  }

  private static func connection(to api: SampleAPI) -> SampleBackendConnection {
    SampleBackendConnection(api.transport())
  }

  private static func notes() -> SampleRoute {
    SampleRoute("POST", "/notes/{name}", authenticated: false) { request in
      switch request.decodeBody(Echo.self) {
      case .failure(let rejection): rejection.response
      case .success(let echo): .json(201, ["name": request.parameters["name"] ?? "", "note": echo.note])
      }
    }
  }

  @Test("a registered route gets its decoded parameters and body, 405 and 400 like the built-in routes")
  func registeredRouteIsDispatched() async throws {
    let api = SampleAPI()
    try api.register(Self.notes())
    let connection = Self.connection(to: api)

    let created = try await connection.raw("POST", "/notes/a%20b", body: Data(#"{"note": "hi"}"#.utf8))
    #expect(created.status == 201)
    #expect(
      try JSONDecoder().decode([String: String].self, from: created.body) == ["name": "a b", "note": "hi"])

    let malformed = try await connection.raw("POST", "/notes/x", body: Data("not json".utf8))
    #expect(malformed.status == 400)
    #expect(String(decoding: malformed.body, as: UTF8.self) == #"{"error":"malformed JSON body"}"#)
    let wrongShape = try await connection.raw("POST", "/notes/x", body: Data(#"{"note": 5}"#.utf8))
    #expect(wrongShape.status == 400)

    let wrongMethod = try await connection.raw("GET", "/notes/x")
    #expect(wrongMethod.status == 405)
    #expect(wrongMethod.headers["allow"] == "POST")
    #expect(try await connection.counters().paths["POST /notes/a%20b"] == 1)
  }

  @Test("an authenticated registered route runs the todo routes' bearer check, and a reset keeps it")
  func registeredRouteIsProtected() async throws {
    let api = SampleAPI()
    let calls = CallCounter()
    try api.register(
      SampleRoute("GET", "/private", authenticated: true) { _ in
        await calls.increment()
        return .json(200, ["ok": true])
      })
    let connection = Self.connection(to: api)

    let anonymous = try await connection.raw("GET", "/private")
    #expect(anonymous.status == 401)
    #expect(anonymous.headers["www-authenticate"] == "Bearer")
    let unknown = try await connection.raw("GET", "/private", headers: ["Authorization": "Bearer at-unknown"])
    #expect(unknown.status == 401)
    #expect(await calls.value == 0)

    _ = try await connection.raw("POST", "/_control/reset")
    try await connection.configure(requireAuth: false)
    #expect(try await connection.raw("GET", "/private").status == 200)
    #expect(await calls.value == 1)
  }

  @Test("registering a route the API already serves throws and replaces nothing")
  func conflictingRouteIsRefused() async throws {
    let api = SampleAPI()
    #expect(throws: SampleRoute.Conflict.self) {
      try api.register(
        SampleRoute("GET", "/todos/{todoID}", authenticated: false) { _ in .error(500, "wrong") })
    }
    try api.register(Self.notes())
    #expect(throws: SampleRoute.Conflict.self) { try api.register(Self.notes()) }

    let connection = Self.connection(to: api)
    try await connection.configure(requireAuth: false)
    #expect(try await connection.raw("GET", "/todos/1").status == 200)
  }
}

/// How many times a route handler ran.
private actor CallCounter {
  private(set) var value = 0
  func increment() { value += 1 }
}
