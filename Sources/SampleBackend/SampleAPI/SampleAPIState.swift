import Foundation

/// Everything the sample API remembers between requests. Reset by `POST /_control/reset`.
struct SampleAPIState: Sendable {
  struct Config: Codable, Sendable, Hashable {
    /// Seconds an access token stays valid.
    var tokenLifetime: Double = 3600
    /// Whether the todo routes demand a bearer token (the contract says they do; tests may relax it).
    var requireAuth = true
  }

  struct Counters: Codable, Sendable, Hashable {
    var requests = 0
    var logins = 0
    var refreshes = 0
    var cancelled = 0
    /// Requests that carried an `Authorization` header.
    var authorized = 0
    var paths: [String: Int] = [:]
  }

  var todos: [Int: SampleTodo] = Dictionary(uniqueKeysWithValues: SampleData.todos.map { ($0.id, $0) })
  var nextTodoID = SampleData.firstCreatedTodoID
  var accessTokens: [String: Date] = [:]
  var refreshTokens: Set<String> = []
  var faults: [SampleFault] = []
  var counters = Counters()
  var config = Config()
  /// The records of the scaffolded collections by name, seeded on first use.
  var collections: [String: SampleCollection.Storage] = [:]

  /// Takes one use of the first fault matching the request, if any.
  mutating func consumeFault(method: String, path: String) -> SampleFault? {
    guard let index = faults.firstIndex(where: { $0.matches(method: method, path: path) }) else {
      return nil
    }
    let fault = faults[index]
    let remaining = fault.count ?? 1
    if remaining > 1 {
      faults[index].count = remaining - 1
    } else if remaining != -1 {
      faults.remove(at: index)
    }
    return fault
  }

  /// Issues a new token pair and returns the login/refresh response body.
  mutating func issueTokens(now: Date) -> TokenPair {
    let access = "at-" + Self.randomHex()
    let refresh = "rt-" + Self.randomHex()
    accessTokens[access] = now.addingTimeInterval(config.tokenLifetime)
    refreshTokens.insert(refresh)
    return TokenPair(
      accessToken: access, refreshToken: refresh, expiresIn: Self.wholeSeconds(config.tokenLifetime))
  }

  /// A lifetime in whole seconds, truncated, and at most `Int.max`: the configured lifetime is
  /// any non-negative number, and converting a larger one would trap.
  private static func wholeSeconds(_ lifetime: Double) -> Int {
    lifetime < Double(Int.max) ? Int(lifetime) : .max
  }

  private static func randomHex() -> String {
    (0..<2).map { _ in
      let hex = String(UInt64.random(in: .min ... .max), radix: 16)
      return String(repeating: "0", count: 16 - hex.count) + hex
    }
    .joined()
  }
}

/// The body of a successful login or refresh.
struct TokenPair: Codable, Sendable {
  var accessToken: String
  var refreshToken: String
  var expiresIn: Int
}
