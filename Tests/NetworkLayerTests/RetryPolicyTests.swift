import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Retry policy")
struct RetryPolicyTests {
  // Sun, 06 Nov 1994 08:49:32 GMT: five seconds before the date in RFC 9110's examples.
  private static let now = Date(timeIntervalSince1970: 784_111_772)

  /// A policy whose jitter always draws the top of its range, so a backoff equals its ceiling.
  private static func ceilingPolicy(maxAttempts: Int = 3, maxDelay: Duration = .seconds(10)) -> RetryPolicy {
    RetryPolicy(maxAttempts: maxAttempts, maxDelay: maxDelay, random: { $0.upperBound }, now: { now })
  }

  private func failure(_ error: NetworkError, retryAfter: String? = nil) throws -> AttemptFailure {
    let url = try #require(URL(string: "https://api.example.com/todos"))
    var response: HTTPURLResponse?
    if case .badStatus(let code, _) = error {
      let headers = retryAfter.map { ["Retry-After": $0] } ?? [:]
      // Failable on Apple platforms, not on Linux; assigning to the optional compiles on both.
      response = HTTPURLResponse(url: url, statusCode: code, httpVersion: "HTTP/1.1", headerFields: headers)
    }
    return AttemptFailure(error: error, request: URLRequest(url: url), response: response)
  }

  private func decide(
    _ error: NetworkError,
    method: HTTPMethod = .get,
    isIdempotent: Bool? = nil,
    attempt: Int = 1,
    earlierFailures: [NetworkError] = [],
    retryAfter: String? = nil,
    policy: RetryPolicy = RetryPolicyTests.ceilingPolicy()
  ) async throws -> RetryDecision {
    let context = RequestContext(
      baseURL: try #require(URL(string: "https://api.example.com")),
      method: method,
      path: ["todos"],
      requiresAuthentication: false,
      isIdempotent: isIdempotent ?? method.isIdempotent,
      attempt: attempt,
      failures: earlierFailures + [error]
    )
    return await policy.retry(after: try failure(error, retryAfter: retryAfter), context: context)
  }

  private static let unavailable = NetworkError.badStatus(code: 503, bodyExcerpt: nil)
  private static let firstBackoff = RetryDecision.retry(after: .milliseconds(200))

  // MARK: Which requests

  @Test(
    "idempotent methods are retried after a 503",
    arguments: [
      HTTPMethod.get, .head, .put, .delete, .options, .trace,
    ])
  func idempotentMethods(method: HTTPMethod) async throws {
    #expect(try await decide(Self.unavailable, method: method) == Self.firstBackoff)
  }

  @Test("POST and PATCH are not retried after a 503", arguments: [HTTPMethod.post, .patch])
  func nonIdempotentMethods(method: HTTPMethod) async throws {
    #expect(try await decide(Self.unavailable, method: method) == .doNotRetry)
  }

  @Test(
    "POST and PATCH are retried when the endpoint opts in as idempotent",
    arguments: [
      HTTPMethod.post, .patch,
    ])
  func optedInMethods(method: HTTPMethod) async throws {
    #expect(try await decide(Self.unavailable, method: method, isIdempotent: true) == Self.firstBackoff)
  }

  // MARK: Which failures

  @Test("transient statuses are retried", arguments: [408, 429, 500, 502, 503, 504])
  func retryableStatuses(code: Int) async throws {
    #expect(try await decide(.badStatus(code: code, bodyExcerpt: nil)) == Self.firstBackoff)
  }

  @Test("statuses a retry cannot change are not retried", arguments: [400, 401, 403, 404, 409, 422, 501])
  func permanentStatuses(code: Int) async throws {
    #expect(try await decide(.badStatus(code: code, bodyExcerpt: "nope")) == .doNotRetry)
  }

  @Test(
    "transport failures to reach the host are retried",
    arguments: [
      URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
      .dnsLookupFailed, .notConnectedToInternet,
    ])
  func retryableTransport(code: URLError.Code) async throws {
    #expect(try await decide(.transport(code: code.rawValue)) == Self.firstBackoff)
  }

  @Test(
    "failures a retry cannot fix are not retried",
    arguments: [
      NetworkError.transport(code: URLError.Code.cancelled.rawValue), .cancelled, .timeout,
      .refreshFailed(reason: "refresh token rejected"), .excessiveRefresh, .unauthorized,
      .decodingFailed(path: "[3].title", reason: "missing"), .noData, .invalidResponse,
      .unacceptableContentType(received: "text/html", accepted: "application/json"),
    ])
  func permanentFailures(error: NetworkError) async throws {
    #expect(try await decide(error) == .doNotRetry)
  }

  @Test(
    "a call whose session was lost earlier is not retried, even after a 503",
    arguments: [NetworkError.refreshFailed(reason: "refresh token rejected"), .excessiveRefresh])
  func lostSession(earlier: NetworkError) async throws {
    #expect(try await decide(Self.unavailable, attempt: 2, earlierFailures: [earlier]) == .doNotRetry)
  }

  // MARK: How many times

  @Test("the last allowed attempt is not retried; the ones before it are")
  func maxAttempts() async throws {
    #expect(try await decide(Self.unavailable, attempt: 2) == .retry(after: .milliseconds(400)))
    #expect(try await decide(Self.unavailable, attempt: 3) == .doNotRetry)
    #expect(try await decide(Self.unavailable, attempt: 4) == .doNotRetry)
  }

  @Test("a policy allowing one attempt never retries")
  func singleAttempt() async throws {
    #expect(try await decide(Self.unavailable, policy: Self.ceilingPolicy(maxAttempts: 1)) == .doNotRetry)
  }

  // MARK: How long to wait

  @Test("backoff ceilings double from the base delay and stop at the maximum")
  func backoffCeilings() {
    let policy = Self.ceilingPolicy()
    let delays = (1...9).map { policy.backoff(forRetry: $0) }
    let expected: [Duration] = [
      .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1_600),
      .milliseconds(3_200), .milliseconds(6_400), .seconds(10), .seconds(10), .seconds(10),
    ]
    #expect(delays == expected)

    let capped = Self.ceilingPolicy(maxDelay: .seconds(1))
    #expect(
      (1...5).map { capped.backoff(forRetry: $0) }
        == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
  }

  @Test("the lowest jitter draw waits not at all")
  func backoffFloor() {
    let policy = RetryPolicy(random: { $0.lowerBound })
    #expect((1...6).map { policy.backoff(forRetry: $0) } == Array(repeating: .zero, count: 6))
  }

  @Test("jitter is drawn from the whole range between zero and the ceiling")
  func fullJitter() {
    let policy = RetryPolicy(random: { range in
      #expect(range == 0...0.8)
      return range.upperBound / 2
    })
    #expect(policy.backoff(forRetry: 3) == .milliseconds(400))
  }

  @Test("a draw outside the range is clamped into it")
  func clampedDraw() {
    #expect(RetryPolicy(random: { _ in 99 }).backoff(forRetry: 1) == .milliseconds(200))
    #expect(RetryPolicy(random: { _ in -5 }).backoff(forRetry: 1) == .zero)
    #expect(RetryPolicy(random: { _ in .nan }).backoff(forRetry: 1) == .zero)
  }

  @Test("a huge retry number neither overflows nor passes the maximum")
  func hugeRetry() {
    #expect(Self.ceilingPolicy().backoff(forRetry: .max) == .seconds(10))
    let huge = RetryPolicy(
      baseDelay: .seconds(Int64.max / 2), maxDelay: .seconds(Int64.max), random: { $0.upperBound })
    #expect(huge.backoff(forRetry: .max) == .seconds(Int64.max))
  }

  // MARK: Retry-After

  @Test("Retry-After in seconds sets the delay")
  func retryAfterSeconds() async throws {
    #expect(try await decide(Self.unavailable, retryAfter: "2") == .retry(after: .seconds(2)))
    #expect(try await decide(Self.unavailable, retryAfter: " \t2 ") == .retry(after: .seconds(2)))
  }

  @Test("Retry-After as an HTTP date waits until that date")
  func retryAfterDate() async throws {
    let decision = try await decide(Self.unavailable, retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT")
    #expect(decision == .retry(after: .seconds(5)))
  }

  @Test("Retry-After with a date in the past retries without waiting")
  func retryAfterPast() async throws {
    let decision = try await decide(Self.unavailable, retryAfter: "Sat, 05 Nov 1994 08:49:37 GMT")
    #expect(decision == .retry(after: .zero))
  }

  @Test(
    "Retry-After longer than the cap ends the retries rather than waiting less",
    arguments: ["61", "3600", "99999999999999999999999", "Sun, 06 Nov 1994 09:49:37 GMT"])
  func retryAfterBeyondCap(value: String) async throws {
    #expect(try await decide(.badStatus(code: 429, bodyExcerpt: nil), retryAfter: value) == .doNotRetry)
  }

  @Test("Retry-After exactly at the cap is honoured")
  func retryAfterAtCap() async throws {
    #expect(try await decide(Self.unavailable, retryAfter: "60") == .retry(after: .seconds(60)))
  }

  @Test(
    "an invalid Retry-After is ignored in favour of the backoff",
    arguments: [
      "soon", "", "-1", "1.5", "+3", "2 s", "0x10", "Sun, 06 Nov 1994", "Sun, 06 Nov 1994 08:49:37",
      "Sun, 06 Nov 1994 08:49:37 GM", "Mon, 06 Nov 1994 08:49:37 GMT", "sun, 06 nov 1994 08:49:37 gmt",
    ])
  func retryAfterInvalid(value: String) async throws {
    #expect(try await decide(Self.unavailable, retryAfter: value) == Self.firstBackoff)
  }

  @Test("Retry-After does not make a permanent status retryable")
  func retryAfterOnPermanentStatus() async throws {
    #expect(try await decide(.badStatus(code: 400, bodyExcerpt: nil), retryAfter: "1") == .doNotRetry)
  }

  @Test(
    "every HTTP-date form RFC 9110 allows is read in GMT",
    arguments: [
      "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    ])
  func httpDateForms(value: String) {
    #expect(RetryAfter.delay(from: value, now: Self.now) == .seconds(5))
  }

  @Test(
    "a date holding a character outside printable ASCII is no date, and reading it does not trap",
    arguments: [
      "Sun, 06 Nov 1994 08:49:37 GMT\u{301}", "Sun\u{301}, 06 Nov 1994 08:49:37 GMT",
      "Sunday\u{301}, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994\u{301}",
      "Sun, 06 Nov 1994 08:49:37 GMT\u{0}",
    ])
  func httpDateOutsideASCII(value: String) {
    #expect(RetryAfter.delay(from: value, now: Self.now) == nil)
  }

  @Test("delta-seconds are whole non-negative numbers, and zero means now")
  func deltaSeconds() {
    #expect(RetryAfter.delay(from: "0", now: Self.now) == .zero)
    #expect(RetryAfter.delay(from: "120", now: Self.now) == .seconds(120))
    #expect(RetryAfter.delay(from: "-0", now: Self.now) == nil)
    #expect(RetryAfter.delay(from: "99999999999999999999999", now: Self.now) == .seconds(Int64.max))
  }
}
