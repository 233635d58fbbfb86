import Foundation
import LayeredSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Printing network events")
struct ConsoleEventMonitorTests {
  private static let secrets = ["at-123", "hunter2", "rt-456"]

  /// What one monitor wrote: one entry per sink call, and those entries split into lines.
  private struct Output {
    let entries: [String]
    var lines: [String] { entries.flatMap { $0.split(separator: "\n").map(String.init) } }
  }

  private func record(
    _ events: [NetworkEvent],
    verbose: Bool = false,
    prefix: String = ""
  ) -> Output {
    let entries = Locked<[String]>([])
    let monitor = ConsoleEventMonitor(verbose: verbose, prefix: prefix) { text in
      entries.withLock { $0.append(text) }
    }
    for event in events {
      monitor.record(event)
    }
    return Output(entries: entries.withLock { $0 })
  }

  private func request(
    _ method: String,
    _ url: String,
    headers: [String: String] = [:],
    body: String? = nil
  ) throws -> URLRequest {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    for (name, value) in headers {
      request.setValue(value, forHTTPHeaderField: name)
    }
    request.httpBody = body.map { Data($0.utf8) }
    return request
  }

  private func todos(attempt: Int) throws -> RequestSummary {
    let request = try request(
      "GET", "http://api.test/todos?userId=1",
      headers: ["Authorization": "Bearer at-123", "Accept": "application/json"])
    return RequestSummary(callID: 12, attempt: attempt, request: request)
  }

  private func refresh(callID: Int = 13) throws -> RequestSummary {
    let request = try request(
      "POST", "http://api.test/auth/refresh",
      headers: [
        "Authorization": "Bearer at-123", "Content-Type": "application/json", "X-Trace": "trace-9",
      ],
      body: #"{"username":"demo","password":"hunter2","refreshToken":"rt-456"}"#)
    return RequestSummary(callID: callID, attempt: 1, request: request)
  }

  /// A call that is retried after a 503, refreshes its token after a 401 and succeeds, then a
  /// call whose refresh fails.
  private func script() throws -> [NetworkEvent] {
    let refreshFailure = NetworkError.refreshFailed(reason: "bad status 401")
    return [
      .requestStarted(try todos(attempt: 1)),
      .responseReceived(
        try todos(attempt: 1), status: 503, bodyByteCount: 42, duration: .microseconds(3_240)),
      .retrying(
        try todos(attempt: 1), reason: .badStatus(code: 503, bodyExcerpt: nil), delay: .milliseconds(400)),
      .requestStarted(try todos(attempt: 2)),
      .responseReceived(try todos(attempt: 2), status: 401, bodyByteCount: 0, duration: .milliseconds(2)),
      .refreshStarted,
      .requestStarted(try refresh()),
      .responseReceived(try refresh(), status: 200, bodyByteCount: 1, duration: .milliseconds(11)),
      .refreshSucceeded(duration: .milliseconds(12)),
      .retrying(try todos(attempt: 2), reason: .unauthorized, delay: .zero),
      .requestStarted(try todos(attempt: 3)),
      .responseReceived(
        try todos(attempt: 3), status: 200, bodyByteCount: 16085, duration: .microseconds(3_200)),
      .succeeded(try todos(attempt: 3), duration: .microseconds(20_500)),
      .refreshStarted,
      .refreshFailed(refreshFailure, duration: .milliseconds(8)),
      .failed(try todos(attempt: 1), refreshFailure, duration: .milliseconds(1_234)),
    ]
  }

  @Test("a scripted session prints one line per event, in a grep-friendly shape")
  func transcript() throws {
    let output = record(try script())
    #expect(
      output.lines == [
        "→ #12.1 GET http://api.test/todos?userId=1",
        "← #12.1 503 (42 bytes) in 3.2 ms",
        "↻ #12.1 retry in 400.0 ms: bad status 503",
        "→ #12.2 GET http://api.test/todos?userId=1",
        "← #12.2 401 (0 bytes) in 2.0 ms",
        "⟳ refresh started",
        "→ #13.1 POST http://api.test/auth/refresh",
        "← #13.1 200 (1 byte) in 11.0 ms",
        "⟳ refresh succeeded in 12.0 ms",
        "↻ #12.2 retry at once: unauthorized: no valid credentials for this request",
        "→ #12.3 GET http://api.test/todos?userId=1",
        "← #12.3 200 (16085 bytes) in 3.2 ms",
        "✓ #12 GET http://api.test/todos?userId=1 done in 20.5 ms",
        "⟳ refresh started",
        "⟳ refresh failed after 8.0 ms: session refresh failed: bad status 401",
        "✗ #12 GET http://api.test/todos?userId=1 failed after 1.2 s: session refresh failed: bad status 401",
      ])
  }

  @Test("the lines carry the method, the URL, the status, the retry and the error text")
  func content() throws {
    let lines = record(try script()).lines
    #expect(lines.contains { $0.contains("GET") && $0.contains("http://api.test/todos?userId=1") })
    #expect(lines.contains { $0.contains("POST") && $0.contains("http://api.test/auth/refresh") })
    #expect(lines.contains { $0.contains("503") && $0.hasPrefix("←") })
    #expect(lines.contains { $0.contains("retry") && $0.contains("bad status 503") })
    #expect(lines.contains { $0.contains("refresh succeeded") })
    #expect(lines.contains { $0.contains("refresh failed") })
    #expect(lines.contains { $0.hasPrefix("✗") && $0.contains("failed") })
    #expect(lines.contains { $0.hasPrefix("✓") && $0.contains("done") })
  }

  @Test("no line carries the access token, the password or the refresh token", arguments: [false, true])
  func noSecrets(verbose: Bool) throws {
    let lines = record(try script(), verbose: verbose, prefix: "[net] ").lines
    #expect(!lines.isEmpty)
    for line in lines {
      for secret in Self.secrets {
        #expect(!line.contains(secret), "\(secret) leaked in \(line)")
      }
    }
  }

  @Test("verbose mode adds the redacted headers, sorted by name, and the redacted body")
  func verbose() throws {
    let output = record([.requestStarted(try refresh())], verbose: true)
    #expect(output.entries.count == 1, "one event is one sink call")
    let lines = output.lines
    #expect(lines.first == "→ #13.1 POST http://api.test/auth/refresh")
    let headerNames = lines.dropFirst().filter { !$0.hasPrefix("    body: ") }
      .map { $0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }.lowercased() }
    #expect(headerNames == ["authorization", "content-type", "x-trace"])
    #expect(lines.contains { $0.hasPrefix("    ") && $0.hasSuffix(": Bearer <redacted>") })
    #expect(lines.contains { $0.hasSuffix(": trace-9") })
    let body = try #require(lines.last)
    #expect(body.hasPrefix("    body: "))
    #expect(body.contains(#""username":"demo""#))
    #expect(body.contains(#""password":"<redacted>""#))
    #expect(body.contains(#""refreshToken":"<redacted>""#))
    #expect(lines.count == 5)
  }

  @Test("verbose mode adds nothing for a request without headers or body")
  func verboseBare() throws {
    let summary = RequestSummary(
      callID: 1, attempt: 1, request: try request("DELETE", "http://api.test/todos/3"))
    #expect(
      record([.requestStarted(summary)], verbose: true).lines == ["→ #1.1 DELETE http://api.test/todos/3"])
  }

  @Test("verbose mode changes only started requests")
  func verboseOtherEvents() throws {
    let events = try script().filter {
      if case .requestStarted = $0 { return false }
      return true
    }
    #expect(record(events, verbose: true).lines == record(events).lines)
  }

  @Test("the prefix starts every line, verbose lines included")
  func prefix() throws {
    let output = record(try script(), verbose: true, prefix: "[net] ")
    #expect(output.lines.count > output.entries.count, "verbose lines are present")
    #expect(output.lines.allSatisfy { $0.hasPrefix("[net] ") })
    #expect(output.lines.contains("[net] ⟳ refresh started"))
  }

  @Test("each event is exactly one call to the sink")
  func oneCallPerEvent() throws {
    let events = try script()
    #expect(record(events).entries.count == events.count)
    #expect(record(events, verbose: true).entries.count == events.count)
  }

  @Test(
    "durations read in milliseconds with one decimal below a second, in seconds from a second up",
    arguments: [
      (Duration.zero, "0.0 ms"),
      (.nanoseconds(40_000), "0.0 ms"),
      (.microseconds(250), "0.3 ms"),
      (.microseconds(3_240), "3.2 ms"),
      (.milliseconds(400), "400.0 ms"),
      (.microseconds(999_940), "999.9 ms"),
      (.microseconds(999_960), "1.0 s"),
      (.seconds(1), "1.0 s"),
      (.milliseconds(1_234), "1.2 s"),
      (.milliseconds(1_250), "1.3 s"),
      (.seconds(75), "75.0 s"),
    ]
  )
  func durations(duration: Duration, expected: String) throws {
    let lines = record([.succeeded(try todos(attempt: 1), duration: duration)]).lines
    #expect(lines == ["✓ #12 GET http://api.test/todos?userId=1 done in \(expected)"])
  }

  @Test(
    "error text is the error's description",
    arguments: [
      NetworkError.timeout, .cancelled, .noData, .transport(code: -1_004),
      .badStatus(code: 404, bodyExcerpt: #"{"error":"not found"}"#),
      .decodingFailed(path: "[3].title", reason: "missing"),
    ]
  )
  func errorText(error: NetworkError) throws {
    let lines = record([.failed(try todos(attempt: 1), error, duration: .seconds(2))]).lines
    #expect(lines == ["✗ #12 GET http://api.test/todos?userId=1 failed after 2.0 s: \(error.description)"])
  }

  @Test("a line break inside a value is escaped, so it cannot forge a line of its own")
  func controlCharacters() throws {
    let excerpt = "oops\n✓ #99 GET http://api.test/x done in 1.0 ms\r\n\u{7}"
    let bodyRequest = try request("POST", "http://api.test/notes", body: "first line\nsecond line")
    let output = record(
      [
        .failed(try todos(attempt: 1), .badStatus(code: 500, bodyExcerpt: excerpt), duration: .seconds(1)),
        .requestStarted(RequestSummary(callID: 2, attempt: 1, request: bodyRequest)),
      ],
      verbose: true)
    #expect(output.lines.count == 3)
    #expect(!output.lines.contains { $0.hasPrefix("✓") })
    #expect(
      output.lines.contains { $0.hasSuffix(#"oops\n✓ #99 GET http://api.test/x done in 1.0 ms\r\n\u{7}"#) })
    #expect(output.lines.contains(#"    body: first line\nsecond line"#))
  }

  @Test("events recorded from many tasks at once each reach the sink whole")
  func concurrentRecording() async throws {
    let entries = Locked<[String]>([])
    let monitor = ConsoleEventMonitor(verbose: true) { text in entries.withLock { $0.append(text) } }
    let summaries = try (1...200).map { try refresh(callID: $0) }
    await withTaskGroup(of: Void.self) { group in
      for summary in summaries {
        group.addTask { monitor.record(.requestStarted(summary)) }
      }
    }
    let recorded = entries.withLock { $0 }
    #expect(recorded.count == summaries.count)
    #expect(recorded.allSatisfy { $0.split(separator: "\n").count == 5 })
    // Typed and outside #expect: inferred inside the macro's expansion, this one line is slow to
    // type-check.
    let callIDs: Set<Substring> = Set(recorded.compactMap { $0.split(separator: " ").dropFirst().first })
    #expect(callIDs.count == summaries.count)
  }
}
