import Foundation
import LayeredSupport
import SampleBackend

/// A backend whose login contract is not the sample API's, in the shape of a common JWT backend:
/// every URL ends with `/` (one without is redirected, as such servers do), a login answers
/// `{"access", "refresh"}` with the expiry only in the access token's `exp` and `iat` claims, by a
/// clock that may be off the device's, a refresh
/// rotates the refresh token and blacklists the old one, logout blacklists the refresh token, a
/// refused login answers 401 with `{"detail": …}`, so does a rejected refresh token unless the
/// backend is built with another status, and a request presents its access token as
/// `Authorization: JWT …` (as djangorestframework-jwt has it), never `Bearer`. Built with an API
/// key, it also wants that key in an `apikey` header on every request, as Supabase does, and
/// answers 401 without it.
///
/// It counts at the server: every request line, and every refresh token each route received.
final class JWTStyleBackend: InProcessHandler {
  struct State {
    var requestLines: [String] = []
    var refreshTokensReceived: [String] = []
    var blacklisted: Set<String> = []
    var validRefreshTokens: Set<String> = []
    var accessTokens: [String: Date] = [:]
    var issued = 0
    var withoutAPIKey = 0
  }

  let state = Locked(State())
  /// How long an access token issued from now on lives.
  let accessLifetime: Locked<TimeInterval>
  /// The status a refresh with an unknown or blacklisted refresh token is answered with.
  let refreshRejection: Int
  /// The key every request must carry in its `apikey` header, if the backend wants one.
  let apiKey: String?

  /// How far the server's clock is ahead of the device's (behind, when negative).
  let clockOffset: TimeInterval

  init(
    accessLifetime: TimeInterval = 300, refreshRejection: Int = 401, apiKey: String? = nil,
    clockOffset: TimeInterval = 0
  ) {
    self.accessLifetime = Locked(accessLifetime)
    self.refreshRejection = refreshRejection
    self.apiKey = apiKey
    self.clockOffset = clockOffset
  }

  /// The time by the server's clock.
  private var now: Date { Date().addingTimeInterval(clockOffset) }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    state.withLock { $0.requestLines.append("\(request.method) \(request.percentEncodedPath)") }
    if let apiKey, request.header("apikey") != apiKey {
      state.withLock { $0.withoutAPIKey += 1 }
      return Self.json(401, ["message": "No API key found in request"])
    }
    guard request.percentEncodedPath.hasSuffix("/") else {
      return .respond(InProcessResponse(status: 301, headers: ["Location": request.percentEncodedPath + "/"]))
    }
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/api/token/"):
      let fields = request.jsonFields
      guard fields["username"] == "demo", fields["password"] == "correct-horse-battery-staple" else {
        return Self.json(401, ["detail": "No active account found with the given credentials"])
      }
      return Self.json(200, issuePair())
    case ("POST", "/api/token/refresh/"):
      let refresh = request.jsonFields["refresh"] ?? ""
      let accepted = state.withLock { state in
        state.refreshTokensReceived.append(refresh)
        guard state.validRefreshTokens.contains(refresh), !state.blacklisted.contains(refresh) else {
          return false
        }
        state.blacklisted.insert(refresh)
        return true
      }
      guard accepted else {
        return Self.json(refreshRejection, ["detail": "Token is blacklisted", "code": "token_not_valid"])
      }
      return Self.json(200, issuePair())
    case ("POST", "/api/token/blacklist/"):
      let refresh = request.jsonFields["refresh"] ?? ""
      state.withLock { state in
        state.refreshTokensReceived.append(refresh)
        state.blacklisted.insert(refresh)
      }
      return Self.json(200, [:])
    case ("GET", "/api/todos/"):
      let presented = request.header("Authorization") ?? ""
      let token = presented.hasPrefix("JWT ") ? String(presented.dropFirst("JWT ".count)) : ""
      let now = now
      let valid = state.withLock { $0.accessTokens[token].map { $0 > now } ?? false }
      guard valid else {
        var refused = Self.json(401, ["detail": "Given token not valid for any token type"])
        if case .respond(var response) = refused {
          response.headers["WWW-Authenticate"] = #"JWT realm="api""#
          refused = .respond(response)
        }
        return refused
      }
      return .respond(
        InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("[]".utf8)))
    default:
      return Self.json(404, ["detail": "Not found."])
    }
  }

  /// The refresh tokens the refresh and blacklist routes received, in order.
  var refreshTokensReceived: [String] { state.withLock { $0.refreshTokensReceived } }

  /// How many requests came without the API key.
  var withoutAPIKey: Int { state.withLock { $0.withoutAPIKey } }

  /// Every request line, in order.
  var requestLines: [String] { state.withLock { $0.requestLines } }

  /// How many requests had this line.
  func count(_ line: String) -> Int { requestLines.filter { $0 == line }.count }

  private func issuePair() -> [String: String] {
    let issuedAt = now
    let expiry = issuedAt.addingTimeInterval(accessLifetime.withLock { $0 })
    return state.withLock { state in
      state.issued += 1
      let access = Self.jwt(issuedAt: issuedAt, expiry: expiry, id: state.issued)
      let refresh = "refresh-\(state.issued)-\(UUID().uuidString)"
      state.accessTokens[access] = expiry
      state.validRefreshTokens.insert(refresh)
      return ["access": access, "refresh": refresh]
    }
  }

  /// A JWT as such backends sign it; the client checks no signature, so this one is fixed.
  static func jwt(issuedAt: Date, expiry: Date, id: Int) -> String {
    func part(_ json: String) -> String {
      Data(json.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    let (iat, exp) = (Int(issuedAt.timeIntervalSince1970), Int(expiry.timeIntervalSince1970.rounded(.up)))
    let payload = #"{"token_type":"access","exp":\#(exp),"iat":\#(iat),"jti":"\#(id)"}"#
    return part(#"{"alg":"HS256","typ":"JWT"}"#) + "." + part(payload) + ".c2lnbmF0dXJl"
  }

  private static func json(_ status: Int, _ object: [String: String]) -> InProcessReply {
    let body = (try? JSONEncoder().encode(object)) ?? Data("{}".utf8)
    return .respond(
      InProcessResponse(status: status, headers: ["Content-Type": "application/json"], body: body))
  }
}
