public import Foundation
public import SampleBackend
import Synchronization

/// The backend, in process, as routes on the sample API: for previews and tests.
///
/// Like the JWT backends it imitates, it redirects a URL without its trailing slash (301), signs
/// access tokens whose only expiry is their `exp` and `iat` claims, rotates and blacklists refresh tokens,
/// pages lists two at a time with an absolute `next`, refuses a bad title with
/// `{"title": ["…"]}` and someone else's todo with 403. What it received is kept for tests to
/// read, as a server's log would be.
public final class JWTTodosBackend: Sendable {
  private struct Record: Sendable {
    var title: String
    var completed: Bool
    var ownerID: Int
  }

  private struct State: Sendable {
    var accessLifetime: TimeInterval
    var accessTokens: [String: (expiry: Date, userID: Int)] = [:]
    var refreshTokens: [String: Int] = [:]
    var blacklisted: Set<String> = []
    var refreshTokensReceived: [String] = []
    var issued = 0
    var todos: [Int: Record] = [
      1: Record(title: "Write the contract", completed: true, ownerID: 1),
      2: Record(title: "Page the list", completed: false, ownerID: 1),
      3: Record(title: "Refuse a blank title", completed: false, ownerID: 1),
      4: Record(title: "Blacklist on logout", completed: false, ownerID: 1),
      5: Record(title: "Someone else's", completed: false, ownerID: 2),
    ]
  }

  private let state: Mutex<State>

  /// A backend whose access tokens live `accessLifetime` seconds.
  public init(accessLifetime: TimeInterval = 300) {
    state = Mutex(State(accessLifetime: accessLifetime))
  }

  /// How long access tokens issued from now on live; negative ones are expired when issued.
  public func setAccessLifetime(_ seconds: TimeInterval) {
    state.withLock { $0.accessLifetime = seconds }
  }

  /// Forgets every access token, as a server restarted with a new signing key would.
  public func revokeAccessTokens() {
    state.withLock { $0.accessTokens.removeAll() }
  }

  /// The refresh tokens the refresh and blacklist routes received, in order.
  public var refreshTokensReceived: [String] { state.withLock { $0.refreshTokensReceived } }

  /// The refresh tokens that can no longer be used.
  public var blacklisted: Set<String> { state.withLock { $0.blacklisted } }

  /// Serves the backend's routes on `api`.
  public func register(on api: SampleAPI) throws {
    let routes: [(String, String, @Sendable (SampleRouteRequest) -> InProcessResponse)] = [
      ("POST", "/api/token", logIn), ("POST", "/api/token/refresh", refresh),
      ("POST", "/api/token/blacklist", blacklist), ("GET", "/api/todos", list),
      ("POST", "/api/todos", create),
      ("PATCH", "/api/todos/{id}", update),
    ]
    for (method, path, handler) in routes {
      try api.register(
        SampleRoute(method, path, authenticated: false) { request in
          let sent = request.request.percentEncodedPath
          guard sent.hasSuffix("/") else { return Self.redirect(to: sent + "/") }
          return handler(request)
        })
    }
  }

  private func logIn(_ request: SampleRouteRequest) -> InProcessResponse {
    let fields = Self.fields(of: request)
    guard fields["username"] == "demo", fields["password"] == "correct-horse-battery-staple" else {
      return Self.json(401, ["detail": "No active account found with the given credentials"])
    }
    return Self.json(200, issuePair(for: 1))
  }

  private func refresh(_ request: SampleRouteRequest) -> InProcessResponse {
    let refresh = Self.fields(of: request)["refresh"] ?? ""
    let userID = state.withLock { state -> Int? in
      state.refreshTokensReceived.append(refresh)
      guard let userID = state.refreshTokens[refresh], !state.blacklisted.contains(refresh) else {
        return nil
      }
      state.blacklisted.insert(refresh)
      return userID
    }
    guard let userID else {
      return Self.json(401, ["detail": "Token is blacklisted", "code": "token_not_valid"])
    }
    return Self.json(200, issuePair(for: userID))
  }

  private func blacklist(_ request: SampleRouteRequest) -> InProcessResponse {
    let refresh = Self.fields(of: request)["refresh"] ?? ""
    state.withLock { state in
      state.refreshTokensReceived.append(refresh)
      state.blacklisted.insert(refresh)
    }
    return Self.json(200, [String: String]())
  }

  private func list(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let userID = user(of: request) else { return Self.unauthorized }
    let page = Int(request.request.queryValue("page") ?? "1") ?? 1
    let todos = state.withLock { state in
      state.todos.filter { $0.value.ownerID == userID || $0.key == 5 }.sorted { $0.key < $1.key }
    }
    let slice = todos.dropFirst((page - 1) * 2).prefix(2)
    let host = request.request.header("Host") ?? "localhost"
    let next: String? = (page * 2 < todos.count) ? "http://\(host)/api/todos/?page=\(page + 1)" : nil
    let results = slice.map { Self.todoJSON(id: $0.key, $0.value) }.joined(separator: ",")
    let body =
      #"{"count":\#(todos.count),"next":\#(next.map { "\"\($0)\"" } ?? "null"),"previous":null,"results":[\#(results)]}"#
    return InProcessResponse(
      status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
  }

  private func create(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let userID = user(of: request) else { return Self.unauthorized }
    let title = Self.fields(of: request)["title"] ?? ""
    if title.trimmingCharacters(in: .whitespaces).isEmpty {
      return Self.json(400, ["title": ["This field may not be blank."]])
    }
    guard title.count <= 20 else {
      return Self.json(400, ["title": ["Ensure this field has no more than 20 characters."]])
    }
    let (id, record) = state.withLock { state in
      let id = (state.todos.keys.max() ?? 0) + 1
      let record = Record(title: title, completed: false, ownerID: userID)
      state.todos[id] = record
      return (id, record)
    }
    return InProcessResponse(
      status: 201, headers: ["Content-Type": "application/json"],
      body: Data(Self.todoJSON(id: id, record).utf8))
  }

  private func update(_ request: SampleRouteRequest) -> InProcessResponse {
    guard let userID = user(of: request) else { return Self.unauthorized }
    guard let id = request.id(), let record = state.withLock({ $0.todos[id] }) else {
      return Self.json(404, ["detail": "Not found."])
    }
    guard record.ownerID == userID else {
      return Self.json(403, ["detail": "You do not have permission to perform this action."])
    }
    let completed = (try? JSONDecoder().decode([String: Bool].self, from: request.request.body))?["completed"]
    let updated = state.withLock { state in
      state.todos[id]?.completed = completed ?? record.completed
      return state.todos[id] ?? record
    }
    return InProcessResponse(
      status: 200, headers: ["Content-Type": "application/json"],
      body: Data(Self.todoJSON(id: id, updated).utf8))
  }

  private func user(of request: SampleRouteRequest) -> Int? {
    guard let header = request.request.header("Authorization"), header.hasPrefix("Bearer ") else {
      return nil
    }
    let token = String(header.dropFirst("Bearer ".count))
    return state.withLock { state in
      guard let entry = state.accessTokens[token], entry.expiry > Date() else { return nil }
      return entry.userID
    }
  }

  private func issuePair(for userID: Int) -> [String: String] {
    state.withLock { state in
      state.issued += 1
      let issuedAt = Date()
      let expiry = issuedAt.addingTimeInterval(state.accessLifetime)
      let access = Self.jwt(issuedAt: issuedAt, expiry: expiry, id: state.issued)
      let refresh = "refresh-\(state.issued)-\(UUID().uuidString)"
      state.accessTokens[access] = (expiry, userID)
      state.refreshTokens[refresh] = userID
      return ["access": access, "refresh": refresh]
    }
  }

  /// A token shaped as such backends sign them; the client checks no signature.
  private static func jwt(issuedAt: Date, expiry: Date, id: Int) -> String {
    func part(_ json: String) -> String {
      Data(json.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let (iat, exp) = (Int(issuedAt.timeIntervalSince1970), Int(expiry.timeIntervalSince1970.rounded(.down)))
    return part(#"{"alg":"HS256","typ":"JWT"}"#) + "."
      + part(#"{"token_type":"access","exp":\#(exp),"iat":\#(iat),"jti":"\#(id)"}"#)
      + ".c2lnbmF0dXJl"
  }

  private static func todoJSON(id: Int, _ record: Record) -> String {
    let title =
      (try? JSONEncoder().encode(record.title)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    return #"{"id":\#(id),"title":\#(title),"completed":\#(record.completed),"owner_id":\#(record.ownerID)}"#
  }

  private static func fields(of request: SampleRouteRequest) -> [String: String] {
    (try? JSONDecoder().decode([String: String].self, from: request.request.body)) ?? [:]
  }

  private static func json(_ status: Int, _ value: some Encodable) -> InProcessResponse {
    let body = (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
    return InProcessResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
  }

  private static func redirect(to location: String) -> InProcessResponse {
    InProcessResponse(status: 301, headers: ["Location": location])
  }

  private static var unauthorized: InProcessResponse {
    var response = json(401, ["detail": "Given token not valid for any token type"])
    response.headers["WWW-Authenticate"] = #"Bearer realm="api""#
    return response
  }
}
