public import Foundation
public import NetworkLayer
public import SampleBackend

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// A way to reach one running sample backend, and its `/_control/` hooks.
///
/// It talks plain `URLSession` (or, in process, straight to the backend's transport), not the
/// package's own client, so that tests of the client never depend on the code they test to set
/// up their scene.
public struct SampleBackendConnection: Sendable {
  /// A misbehaviour for the backend to inject; see the sample API's contract for the semantics.
  public struct Fault: Encodable, Sendable {
    /// How the faulted request's connection or body is damaged. `reset` and `close` end the
    /// connection before any response; the others damage the body of whatever answer is sent.
    public enum Body: String, Encodable, Sendable {
      /// The answer announces its whole length but the connection ends halfway through the body.
      case truncated
      /// The body is replaced by text that is not valid JSON.
      case malformed
      /// The body is dropped.
      case empty
      /// The connection is dropped before any response.
      case reset
      /// The connection is closed cleanly before any response (in process:
      /// `URLError.badServerResponse`).
      case close
    }

    /// The request path the fault applies to, matched exactly, without the query string.
    public var path: String
    /// The method the fault applies to; `nil` matches any method.
    public var method: String?
    /// How many matching requests misbehave: 1 when `nil`, -1 for every one from now on.
    public var count: Int?
    /// The status that replaces the route's answer; `nil` keeps the route's own status.
    public var status: Int?
    /// The `Retry-After` field sent with `status`, as written.
    public var retryAfter: String?
    /// Seconds the backend waits before answering; a client that leaves meanwhile is counted in
    /// ``Counters/cancelled``.
    public var delay: Double?
    /// The damage done to the connection or the body; `nil` sends the answer intact.
    public var body: Body?
    /// The `Location` field sent with `status`, for redirect tests.
    public var location: String?

    /// Creates a fault for `path`; every misbehaviour left `nil` is not injected.
    public init(
      path: String,
      method: String? = nil,
      count: Int? = nil,
      status: Int? = nil,
      retryAfter: String? = nil,
      delay: Double? = nil,
      body: Body? = nil,
      location: String? = nil
    ) {
      self.path = path
      self.method = method
      self.count = count
      self.status = status
      self.retryAfter = retryAfter
      self.delay = delay
      self.body = body
      self.location = location
    }
  }

  /// What the backend counted since it started or was reset.
  public struct Counters: Decodable, Sendable, Equatable {
    /// Every non-control request, counted on arrival, so faulted and cancelled ones count too.
    public var requests: Int
    /// `POST /auth/login` requests.
    public var logins: Int
    /// `POST /auth/refresh` requests.
    public var refreshes: Int
    /// Requests whose client left before the backend answered.
    public var cancelled: Int
    /// Requests that carried an `Authorization` header.
    public var authorized: Int
    /// Requests per `"METHOD /path"`, keyed as sent, still percent-encoded.
    public var paths: [String: Int]
  }

  /// A control call got an unexpected answer.
  public struct ControlError: Error, CustomStringConvertible {
    /// What was asked and what came back instead.
    public let description: String

    /// Creates the error with its explanation.
    public init(description: String) {
      self.description = description
    }
  }

  /// The backend's base URL.
  public let baseURL: URL
  /// What a client uses to reach the backend.
  public let transport: any HTTPTransport
  private let load: @Sendable (URLRequest) async throws -> (Data, URLResponse)
  private let setReachable: (@Sendable (Bool) async throws -> Void)?

  /// Creates a connection to the backend at `baseURL`, reached through `session`.
  ///
  /// - Parameters:
  ///   - baseURL: The backend's base URL; paths are appended to it as they are.
  ///   - session: A session that reaches the backend; clients get a `URLSessionTransport`
  ///     over it.
  ///   - setReachable: Takes the backend off the network or brings it back; `nil` for a backend
  ///     that cannot go offline, whose ``setReachable(_:)`` then throws ``ControlError``.
  public init(
    baseURL: URL,
    session: URLSession,
    setReachable: (@Sendable (Bool) async throws -> Void)? = nil
  ) {
    self.baseURL = baseURL
    self.transport = URLSessionTransport(session: session)
    self.load = { request in try await Self.load(request, with: session) }
    self.setReachable = setReachable
  }

  /// Creates a connection to the in-process backend that `transport` reaches; taking it off the
  /// network disconnects the transport.
  public init(_ transport: InProcessTransport) {
    self.baseURL = transport.baseURL
    self.transport = transport
    self.load = { request in try await transport.send(request) }
    self.setReachable = { reachable in reachable ? transport.reconnect() : transport.disconnect() }
  }

  /// Takes the backend off the network (requests fail to connect, as when the device is
  /// offline) or brings it back at the same address. A backend brought back starts from the
  /// seed state.
  public func setReachable(_ reachable: Bool) async throws {
    guard let setReachable else { throw ControlError(description: "this backend cannot go offline") }
    try await setReachable(reachable)
  }

  /// Makes the next matching request(s) misbehave.
  public func inject(_ fault: Fault) async throws {
    _ = try await control("POST", "faults", body: JSONEncoder().encode(fault), expecting: 201)
  }

  /// Ends every injected delay in progress at once, so each of those requests is answered as if
  /// its delay had run out, and returns how many requests were waiting in one. A test that holds
  /// a request at the server with a long `delay` releases it when it is done, instead of waiting.
  @discardableResult
  public func releaseDelays() async throws -> Int {
    struct Released: Decodable { var released: Int }
    let data = try await control("POST", "release", expecting: 200)
    return try JSONDecoder().decode(Released.self, from: data).released
  }

  /// Makes every access token the backend has issued so far unknown to it, as a server that
  /// rotates its signing key does, while refresh tokens keep working; returns how many there
  /// were. A client that believes its token valid then meets a real 401, where a token lifetime
  /// of 0 makes the client refresh before it sends.
  @discardableResult
  public func revokeAccessTokens() async throws -> Int {
    struct Revoked: Decodable { var revoked: Int }
    let data = try await control("POST", "revoke", expecting: 200)
    return try JSONDecoder().decode(Revoked.self, from: data).revoked
  }

  /// What the backend has counted.
  public func counters() async throws -> Counters {
    let data = try await control("GET", "counters", expecting: 200)
    return try JSONDecoder().decode(Counters.self, from: data)
  }

  /// What the backend has counted, as soon as `condition` holds, or once `limit` has passed: for
  /// what the backend learns a moment after the client acts, such as a request that arrived or
  /// whose client left. The test then checks the counters it gets, so a wait never hangs it.
  ///
  /// The limit is long because, while the whole suite runs beside flood tests that hold
  /// Foundation's work queue, "a moment" can be several seconds.
  public func counters(
    once condition: @Sendable (Counters) -> Bool, atMost limit: Duration = .seconds(30)
  ) async throws -> Counters {
    let end = ContinuousClock.now + limit
    var counters = try await counters()
    while !condition(counters), ContinuousClock.now < end {
      try await Task.sleep(for: .milliseconds(10))
      counters = try await self.counters()
    }
    return counters
  }

  /// Sets the token lifetime and whether the todo routes require a bearer token.
  public func configure(tokenLifetime: Double? = nil, requireAuth: Bool? = nil) async throws {
    var fields: [String: String] = [:]
    if let tokenLifetime { fields["tokenLifetime"] = "\(tokenLifetime)" }
    if let requireAuth { fields["requireAuth"] = "\(requireAuth)" }
    let json = "{" + fields.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
    _ = try await control("POST", "config", body: Data(json.utf8), expecting: 200)
  }

  /// Sends one raw request to the backend and returns status, headers and body.
  public func raw(
    _ method: String,
    _ path: String,
    body: Data? = nil,
    headers: [String: String] = [:]
  ) async throws -> (status: Int, headers: [String: String], body: Data) {
    guard let url = URL(string: baseURL.absoluteString + path) else {
      throw ControlError(description: "bad path \(path)")
    }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await load(request)
    guard let http = response as? HTTPURLResponse else {
      throw ControlError(description: "\(method) \(path): not an HTTP response")
    }
    var fields: [String: String] = [:]
    for case (let name as String, let value as String) in http.allHeaderFields {
      fields[name.lowercased()] = value
    }
    return (http.statusCode, fields, data)
  }

  /// `session.data(for:)`, except that the task is created and resumed on a queue of its own.
  ///
  /// `data(for:)` does that on the calling thread, one of Swift's cooperative pool, and on
  /// swift-corelibs-foundation both wait for the one work queue every session shares, which a
  /// test's flood keeps busy for as long as it lasts. Tests that only look at the backend would
  /// then stop the pool for every test running beside them, and with it the deadlines those
  /// tests measure.
  private static func load(_ request: URLRequest, with session: URLSession) async throws -> (
    Data, URLResponse
  ) {
    try await withCheckedThrowingContinuation { continuation in
      foundationCalls.async {
        session.dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: error ?? URLError(.badServerResponse))
          }
        }.resume()
      }
    }
  }

  private static let foundationCalls = DispatchQueue(label: "SampleBackendConnection.foundationCalls")

  private func control(_ method: String, _ hook: String, body: Data? = nil, expecting status: Int)
    async throws -> Data
  {
    let response = try await raw(method, "/_control/\(hook)", body: body)
    guard response.status == status else {
      throw ControlError(
        description:
          "\(method) /_control/\(hook) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
      )
    }
    return response.body
  }
}
