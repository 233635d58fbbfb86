import Foundation
import LayeredTestSupport
import Testing

/// The in-process ``SampleAPI`` and `scripts/sample_api.py` implement one contract. These tests
/// hold them together: the same scripted session must get the same answers from both.
@Suite("Sample API contract")
struct SampleBackendContractTests {
  @Test(
    "the embedded API and the Python server answer a scripted session identically",
    .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason)
  )
  func bothBackendsAgree() async throws {
    let embedded = try await SampleBackendKind.embedded.with(Self.scriptedSession)
    let loopback = try await SampleBackendKind.loopback.with(Self.scriptedSession)
    #expect(embedded.count == loopback.count)
    for (index, (mine, theirs)) in zip(embedded, loopback).enumerated() {
      #expect(mine == theirs, "exchange \(index + 1) differs")
    }
  }

  @Test("the seed list holds 200 todos, 20 for each of 10 users", arguments: SampleBackendKind.allCases)
  func seedList(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: false)
      let response = try await connection.raw("GET", "/todos")
      #expect(response.status == 200)
      let todos = try JSONDecoder().decode([WireTodo].self, from: response.body)
      #expect(todos.count == 200)
      #expect(todos.map(\.id) == Array(1...200))
      #expect(
        Dictionary(grouping: todos, by: \.userId).mapValues(\.count)
          == Dictionary(uniqueKeysWithValues: (1...10).map { ($0, 20) }))
      #expect(todos.allSatisfy { !$0.title.isEmpty })
    }
  }

  @Test("faults and counters behave as documented", arguments: SampleBackendKind.allCases)
  func faultsAndCounters(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: false)
      try await connection.inject(
        .init(path: "/todos", method: "GET", count: 2, status: 503, retryAfter: "2"))
      let first = try await connection.raw("GET", "/todos")
      let second = try await connection.raw("GET", "/todos")
      let third = try await connection.raw("GET", "/todos")
      let statuses: [Int] = [first.status, second.status, third.status]
      #expect(statuses == [503, 503, 200])
      #expect(first.headers["retry-after"] == "2")
      let counters = try await connection.counters()
      #expect(counters.requests == 3)
      #expect(counters.paths["GET /todos"] == 3)
    }
  }

  @Test(
    "a release ends the delays in progress at once, and none that begins after it",
    .timeLimit(.minutes(1)),
    arguments: SampleBackendKind.allCases
  )
  func releaseEndsDelaysInProgress(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      try await connection.configure(requireAuth: false)
      #expect(try await connection.releaseDelays() == 0)

      // Far longer than the time limit: only the release can end them. The second is longer
      // than any clock counts, and must hold the request all the same, not crash the server.
      try await connection.inject(.init(path: "/todos/1", method: "GET", delay: 600))
      try await connection.inject(.init(path: "/todos/3", method: "GET", delay: 1e300))
      let held = Task { try await connection.raw("GET", "/todos/1") }
      let heldLonger = Task { try await connection.raw("GET", "/todos/3") }
      var paths = try await connection.counters().paths
      while paths["GET /todos/1"] == nil || paths["GET /todos/3"] == nil {
        try await Task.sleep(for: .milliseconds(5))
        paths = try await connection.counters().paths
      }
      #expect(try await connection.releaseDelays() == 2)
      for (request, id) in [(held, 1), (heldLonger, 3)] {
        let answer = try await request.value
        #expect(answer.status == 200)
        #expect(try JSONDecoder().decode(WireTodo.self, from: answer.body).id == id)
      }

      try await connection.inject(.init(path: "/todos/2", method: "GET", delay: 0.2))
      let start = ContinuousClock.now
      let later = try await connection.raw("GET", "/todos/2")
      #expect(later.status == 200)
      #expect(ContinuousClock.now - start >= .milliseconds(200), "an earlier release cut a later delay short")
      #expect(try await connection.counters().cancelled == 0)
    }
  }

  /// The session both backends must answer alike. Each step is one line of the transcript.
  static func scriptedSession(_ connection: SampleBackendConnection) async throws -> [String] {
    var script = ContractTranscript(connection: connection)
    try await script.exchange("GET", "/todos")
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer at-unknown"])
    try await connection.configure(requireAuth: false)
    try await script.exchange("GET", "/todos")
    try await script.exchange("GET", "/todos?userId=3&completed=true")
    try await script.exchange("GET", "/todos?userId=three")
    try await script.exchange("GET", "/todos?completed=maybe")
    try await script.exchange("GET", "/todos?page=2&pageSize=3")
    try await script.exchange("GET", "/todos?userId=3&completed=true&pageSize=2")
    try await script.exchange("GET", "/todos?userId=3&page=3&pageSize=9")
    try await script.exchange("GET", "/todos?q=FUGIAT")
    try await script.exchange("GET", "/todos?q=fugiat%20v&pageSize=2")
    try await script.exchange("GET", "/todos?q=%C3%A9t%2Fx%20&completed=false&page=1")
    // A NUL is a character like any other, and each letter is lower-cased on its own, with no
    // regard to where it stands in the word (a capital sigma is always σ, never a final ς).
    try await script.exchange("GET", "/todos?q=autem%00")
    try await script.exchange("POST", "/todos", json: #"{"title": "ΟΔΟΣ"}"#)
    try await script.exchange("GET", "/todos?q=%CE%BF%CE%B4%CE%BF%CF%83")
    try await script.exchange("GET", "/todos?q=%CE%BF%CE%B4%CE%BF%CF%82")
    try await script.exchange("GET", "/todos?page=99999999999999999999")
    try await script.exchange("GET", "/todos?page=9223372036854775807&pageSize=100")
    try await script.exchange("GET", "/todos?page=0")
    try await script.exchange("GET", "/todos?pageSize=101")
    try await script.exchange("GET", "/todos/7")
    try await script.exchange("GET", "/todos/9999")
    try await script.exchange("GET", "/todos/abc")
    try await script.exchange("GET", "/todos/+7")
    try await script.exchange("GET", "/nowhere")
    // An answer to HEAD has no body on the wire, whatever its status.
    try await script.exchange("HEAD", "/todos")
    try await script.exchange("HEAD", "/nowhere")
    try await script.exchange("PUT", "/todos/1", json: "{}")
    try await script.exchange("POST", "/todos", json: #"{"title": "  Buy oat milk  ", "userId": 4}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "   "}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "\u001f\u00a0Tea\u2003\u0085"}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "\u001c\u001d"}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "\u200bTea\ufeff"}"#)
    // Read as the in-process server's JSONDecoder reads it: the first of two members with one
    // name, a byte order mark skipped, a whole number written 4.0 or 1e2 an integer, and a lone
    // surrogate or a number past a Double's range a malformed body.
    try await script.exchange("POST", "/todos", json: #"{"title": "a", "title": "b"}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "\ud800"}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": 1e400}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "x\u0000y"}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "x"} junk"#)
    try await script.exchange("POST", "/todos", json: "\u{FEFF}{\"title\": \"bom\"}")
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": 4.0}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": 4.5}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": -0}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": 1e2}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "completed": 1}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "userId": 99999999999999999999}"#)
    try await script.exchange("POST", "/todos", json: #"[1, 2]"#)
    try await script.exchange("POST", "/todos", json: #"{"title": "n", "extra": {"deep": [1, {"x": null}]}}"#)
    try await script.exchange("GET", "/todos?userId=03&pageSize=1")
    try await script.exchange("GET", "/todos?userId=%2B3&pageSize=1")
    try await script.exchange("GET", "/todos?completed=True&pageSize=1")
    try await script.exchange("GET", "/todos?q=&pageSize=1")
    try await script.exchange("GET", "/todos?q=%ZZ&pageSize=1")
    try await script.exchange("GET", "/todos?q=a&q=b&pageSize=1")
    try await script.exchange("GET", "/todos?q=%FF&pageSize=1")
    try await script.exchange("GET", "/todos?q=%E2%82&pageSize=1")
    try await script.exchange("GET", "/todos?userId=%FF")
    try await script.exchange("GET", "/todos?userId=99999999999999999999&pageSize=1")
    try await script.exchange("GET", "/todos?userId=-9223372036854775808&pageSize=1")
    try await script.exchange("GET", "/todos?q=%00&pageSize=1")
    try await script.exchange("GET", "/todos?q=nesciunt+laboriosam&pageSize=1")
    try await script.exchange("GET", "/todos?userId&pageSize=1")
    try await script.exchange("GET", "/todos?q&pageSize=1")
    try await script.exchange("GET", "/todos?q=%2&pageSize=1")
    try await script.exchange("GET", "/todos?q=%+F&pageSize=1")
    try await script.exchange("GET", "/todos?q=%2B&pageSize=1")
    try await script.exchange("GET", "/todos/%FF")
    try await script.exchange("GET", "/todos/%31")
    try await script.exchange("GET", "/todos?pageSize=1&page=1&page=2")
    try await script.exchange("GET", "/todos?pageSize=%201")
    try await script.exchange("GET", "/todos?pageSize=05")
    try await script.exchange("GET", "/todos/007")
    try await script.exchange("GET", "/todos/1/")
    try await script.exchange("GET", "/todos//1")
    try await script.exchange("OPTIONS", "/todos")
    try await script.exchange("DELETE", "/articles/today")
    try await script.exchange("get", "/todos/1")
    try await script.exchange("PATCH", "/todos", json: "{}")
    try await script.exchange("POST", "/todos/1", json: "{}")
    try await script.exchange(
      "POST", "/todos", json: #"{"title": "plain"}"#, headers: ["Content-Type": "text/plain"])
    try await script.exchange("POST", "/todos", json: "", headers: [:])
    try await script.exchange("GET", "/todos/1?x=%FF")
    try await script.exchange("GET", "/todos/%2B1")
    try await script.exchange("GET", "/todos/1%00")
    try await script.exchange("GET", "/todos/%EF%BC%91")
    try await script.exchange("GET", "/todos/9223372036854775808")
    try await script.exchange("POST", "/todos", json: #"{"userId": 2}"#)
    try await script.exchange("POST", "/todos", json: #"{"title": 5}"#)
    try await script.exchange("POST", "/todos", json: "not json")
    try await script.exchange("PATCH", "/todos/201", json: #"{"completed": true}"#)
    try await script.exchange("PATCH", "/todos/201", json: #"{"title": ""}"#)
    try await script.exchange("PATCH", "/todos/9999", json: #"{"completed": true}"#)
    try await script.exchange("PATCH", "/todos/201", json: #"{"completed": null}"#)
    try await script.exchange("PATCH", "/todos/201", json: "{}")
    try await script.exchange("PATCH", "/todos/201", json: #"{"completed": "true"}"#)
    try await script.exchange("PATCH", "/todos/201", json: #"{"title": " Renamed\u3000", "userId": 7}"#)
    try await script.exchange("PATCH", "/todos/201", json: #"{"id": 5}"#)
    try await script.exchange("DELETE", "/todos/201")
    try await script.exchange("GET", "/todos/201")
    try await script.exchange("GET", "/articles/today")
    try await script.exchange("POST", "/auth/login", json: #"{"username": "demo", "password": "wrong"}"#)
    try await script.exchange("POST", "/auth/login", json: #"{"username": "demo"}"#)
    try await script.exchange("POST", "/auth/login", json: #"{"username": "demo", "password": 5}"#)
    try await script.exchange("POST", "/auth/login", json: #"{"username": ["demo"], "password": "x"}"#)
    for username in ["DEMO", " demo"] {
      let body = #"{"username": "\#(username)", "password": "correct-horse-battery-staple"}"#
      try await script.exchange("POST", "/auth/login", json: body)
    }
    try await script.exchange("POST", "/auth/refresh", json: "{}")
    try await script.exchange("POST", "/auth/refresh", json: #"{"refreshToken": 5}"#)
    try await script.exchange("POST", "/auth/refresh", json: #"{"refreshToken": ""}"#)
    let login = try await script.exchange(
      "POST", "/auth/login", json: #"{"username": "demo", "password": "correct-horse-battery-staple"}"#
    )
    let tokens = login as? [String: Any]
    let refreshToken = tokens?["refreshToken"] as? String ?? ""
    let refresh = try await script.exchange(
      "POST", "/auth/refresh", json: #"{"refreshToken": "\#(refreshToken)"}"#)
    try await script.exchange("POST", "/auth/refresh", json: #"{"refreshToken": "\#(refreshToken)"}"#)
    let accessToken = (refresh as? [String: Any])?["accessToken"] as? String ?? ""
    let nextRefreshToken = (refresh as? [String: Any])?["refreshToken"] as? String ?? ""

    try await connection.configure(requireAuth: true)
    try await script.exchange("GET", "/todos/1")
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer at-unknown"])
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Basic ZGVtbzpkZW1v"])
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer \(accessToken)"])
    // The scheme in any case, spaces around the token; a tab is no separator, a longer token no match.
    for written in [
      "bearer \(accessToken)", "BEARER  \(accessToken) ", "Bearer\t\(accessToken)", "Bearer \(accessToken)x",
    ] {
      try await script.exchange("GET", "/todos/1", headers: ["Authorization": written])
    }
    try await script.exchange("GET", "/articles/today")
    // Revoked: the access token that worked a moment ago is unknown; its refresh token still works.
    try await script.exchange("POST", "/_control/revoke")
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer \(accessToken)"])
    let renewed = try await script.exchange(
      "POST", "/auth/refresh", json: #"{"refreshToken": "\#(nextRefreshToken)"}"#)
    let renewedToken = (renewed as? [String: Any])?["accessToken"] as? String ?? ""
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer \(renewedToken)"])
    try await connection.configure(tokenLifetime: 0)
    let expired = try await script.exchange(
      "POST", "/auth/login", json: #"{"username": "demo", "password": "correct-horse-battery-staple"}"#
    )
    let expiredToken = (expired as? [String: Any])?["accessToken"] as? String ?? ""
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer \(expiredToken)"])
    // A lifetime past any integer: both report the largest 64-bit one, and the token works.
    try await connection.configure(tokenLifetime: 1e300)
    let lasting = try await script.exchange(
      "POST", "/auth/login", json: #"{"username": "demo", "password": "correct-horse-battery-staple"}"#
    )
    let lastingToken = (lasting as? [String: Any])?["accessToken"] as? String ?? ""
    try await script.exchange("GET", "/todos/1", headers: ["Authorization": "Bearer \(lastingToken)"])
    try await connection.configure(tokenLifetime: 3600, requireAuth: false)

    try await script.exchange("POST", "/_control/release")
    try await connection.inject(.init(path: "/todos/2", body: .malformed))
    try await script.exchange("GET", "/todos/2")
    try await connection.inject(.init(path: "/todos/2", method: "GET", body: .empty))
    try await script.exchange("GET", "/todos/2")
    try await connection.inject(.init(path: "/articles/today", status: 429, retryAfter: "7"))
    try await script.exchange("GET", "/articles/today")
    try await script.exchange("GET", "/articles/today")
    try await script.exchange("GET", "/todos/4", headers: ["Authorization": "Bearer at-unknown"])
    try await connection.inject(.init(path: "/todos/3", method: "DELETE", body: .malformed))
    try await script.exchange("DELETE", "/todos/3")

    let counters = try await connection.counters()
    return script.lines + [
      "counters: \(counters.requests) requests, \(counters.logins) logins, \(counters.refreshes) refreshes, \(counters.authorized) authorized, paths \(counters.paths.sorted { $0.key < $1.key })"
    ]
  }
}

private struct WireTodo: Decodable {
  var userId: Int
  var id: Int
  var title: String
  var completed: Bool
}
