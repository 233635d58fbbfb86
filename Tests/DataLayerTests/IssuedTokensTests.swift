import DataLayer
import Foundation
import NetworkLayer
import Testing

@Suite("Issued tokens: expiry from a field, a JWT or nowhere, and rotation")
struct IssuedTokensTests {
  private static func jwt(payload: String) -> String {
    func part(_ text: String) -> String {
      Data(text.utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    }
    return part(#"{"alg":"HS256"}"#) + "." + part(payload) + ".sig"
  }

  @Test("a JWT's exp claim is its expiry, whatever else the payload holds")
  func jwtExpiry() {
    #expect(
      TokenExpiry.jwt(Self.jwt(payload: #"{"exp":1900000000}"#))
        == .at(Date(timeIntervalSince1970: 1_900_000_000)))
    // A payload whose base64url needs padding and uses the URL alphabet.
    let payload = #"{"user":"ü?>","exp":1900000001.5,"scope":"a b"}"#
    #expect(TokenExpiry.jwt(Self.jwt(payload: payload)) == .at(Date(timeIntervalSince1970: 1_900_000_001.5)))
  }

  @Test("a JWT that says when it was issued lives exp less iat from its arrival, whatever the device's clock")
  func jwtLifetime() {
    let token = Self.jwt(payload: #"{"iat":1900000000,"exp":1900000300}"#)
    #expect(TokenExpiry.jwt(token) == .after(seconds: 300))
    let arrived = Date(timeIntervalSince1970: 1_000)
    let tokens = IssuedTokens(accessToken: token, refreshToken: "r", expiry: .jwt(token)).tokens(
      receivedAt: arrived)
    #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1_300))
    // An issue time that is not a number, or after the expiry, says nothing of the lifetime:
    // the moment is kept.
    #expect(
      TokenExpiry.jwt(Self.jwt(payload: #"{"iat":"yesterday","exp":1900000000}"#))
        == .at(Date(timeIntervalSince1970: 1_900_000_000)))
    #expect(
      TokenExpiry.jwt(Self.jwt(payload: #"{"iat":1900000010,"exp":1900000000}"#))
        == .at(Date(timeIntervalSince1970: 1_900_000_000)))
  }

  @Test(
    "a token that is not a JWT, or has no numeric exp, has an unknown expiry",
    arguments: [
      "opaque-token", "a.b", "a.!!!.c", "", jwt(payload: "{}"), jwt(payload: #"{"exp":"tomorrow"}"#),
      jwt(payload: #"{"exp":true}"#),
    ])
  func unknownExpiry(token: String) {
    #expect(TokenExpiry.jwt(token) == .unknown)
  }

  @Test("an expiry in seconds counts from when the answer arrived; an unknown one is nil")
  func expiryBecomesADate() {
    let arrived = Date(timeIntervalSince1970: 1_000)
    let tokens = IssuedTokens(accessToken: "a", refreshToken: "r", expiry: .after(seconds: 60))
      .tokens(receivedAt: arrived)
    #expect(tokens.expiresAt == Date(timeIntervalSince1970: 1_060))
    #expect(tokens.issuedAt == arrived)
    #expect(
      IssuedTokens(accessToken: "a", refreshToken: "r", expiry: .unknown).tokens(receivedAt: arrived)
        .expiresAt == nil)
  }

  /// An endless expiry would be a date JSON cannot hold: the tokens would never be saved, and a
  /// relaunched app would be signed out.
  @Test("a lifetime too long to count is an unknown expiry, and such tokens are kept on disk")
  func endlessLifetime() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let endless = Self.jwt(payload: #"{"iat":-1e308,"exp":1e308}"#)
    for expiry in [TokenExpiry.after(seconds: .infinity), .jwt(endless)] {
      let tokens = IssuedTokens(accessToken: "access-1234", refreshToken: "refresh-1234", expiry: expiry)
        .tokens(receivedAt: Date())
      FileTokenStore(fileURL: url).save(tokens)
      #expect(FileTokenStore(fileURL: url).tokens == tokens, "\(expiry)")
    }
  }

  @Test("a rotated refresh token replaces the old one; an answer without one keeps it")
  func rotation() {
    let previous = AuthTokens(accessToken: "old", refreshToken: "refresh-1", expiresAt: nil)
    let rotated = IssuedTokens(accessToken: "new", refreshToken: "refresh-2", expiry: .unknown)
    #expect(rotated.tokens(receivedAt: Date(), replacing: previous).refreshToken == "refresh-2")
    let kept = IssuedTokens(accessToken: "new", refreshToken: nil, expiry: .unknown)
    #expect(kept.tokens(receivedAt: Date(), replacing: previous).refreshToken == "refresh-1")
  }

  @Test("a short-lived token gets half its life as leeway; a long-lived one the whole leeway")
  func leewayIsClampedToHalfTheLifetime() {
    let issued = Date(timeIntervalSince1970: 0)
    let short = AuthTokens(
      accessToken: "a", refreshToken: "r", expiresAt: issued.addingTimeInterval(4), issuedAt: issued)
    #expect(!short.isExpired(at: issued.addingTimeInterval(1.9), leeway: 10))
    #expect(short.isExpired(at: issued.addingTimeInterval(2), leeway: 10))
    let long = AuthTokens(
      accessToken: "a", refreshToken: "r", expiresAt: issued.addingTimeInterval(3600), issuedAt: issued)
    #expect(!long.isExpired(at: issued.addingTimeInterval(3589), leeway: 10))
    #expect(long.isExpired(at: issued.addingTimeInterval(3590), leeway: 10))
    // Tokens saved before their issue time was kept get the whole leeway, as before.
    let unknownLife = AuthTokens(accessToken: "a", refreshToken: "r", expiresAt: issued.addingTimeInterval(4))
    #expect(unknownLife.isExpired(at: issued, leeway: 10))
  }
}
