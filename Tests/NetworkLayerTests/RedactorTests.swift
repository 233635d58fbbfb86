import Foundation
import NetworkLayer
import Testing

@Suite("Redacting credentials")
struct RedactorTests {
  private func redact(_ body: String) throws -> String {
    try #require(Redactor.redact(body: Data(body.utf8)))
  }

  // MARK: Headers

  @Test(
    "an authorization header keeps its scheme and loses its credential, whatever the name's case",
    arguments: [
      "Authorization", "authorization", "AUTHORIZATION", "Proxy-Authorization", "proxy-authorization",
    ]
  )
  func authorizationScheme(name: String) {
    let redacted = Redactor.redact(headers: [name: "Bearer at-secret"])
    #expect(redacted == [name: "Bearer <redacted>"])
    #expect(!redacted.values.contains { $0.contains("at-secret") })
  }

  @Test(
    "a credential without a scheme is replaced whole",
    arguments: ["at-secret", "Bearer", "Bear-er at-secret", "  at-secret"]
  )
  func noScheme(value: String) {
    let redacted = Redactor.redact(headers: ["Authorization": value])
    #expect(redacted == ["Authorization": "<redacted>"])
  }

  @Test(
    "cookie headers are replaced whole",
    arguments: ["Cookie", "cookie", "Set-Cookie", "SET-COOKIE"]
  )
  func cookies(name: String) {
    let redacted = Redactor.redact(headers: [name: "session=at-secret; theme=dark"])
    #expect(redacted == [name: "<redacted>"])
  }

  @Test("headers that carry no credential are untouched")
  func otherHeaders() {
    let headers = [
      "Accept": "application/json",
      "Content-Type": "application/json; charset=utf-8",
      "X-Request-ID": "Bearer not-a-credential",
      "User-Agent": "Layered/1.0",
    ]
    let redacted = Redactor.redact(headers: headers.merging(["Authorization": "Bearer at-secret"]) { $1 })
    #expect(redacted == headers.merging(["Authorization": "Bearer <redacted>"]) { $1 })
  }

  // MARK: JSON bodies

  @Test(
    "credential fields are replaced at any depth and in any case, other fields are kept",
    arguments: [
      (#"{"username":"demo","password":"hunter2"}"#, ["hunter2"], [#""username":"demo""#]),
      (#"{"PASSWORD":"hunter2","id":7}"#, ["hunter2"], [#""id":7"#]),
      (
        #"{"accessToken":"at-secret","refreshToken":"rt-secret","expiresIn":900}"#,
        ["at-secret", "rt-secret"], [#""expiresIn":900"#]
      ),
      (
        #"{"AccessToken":"at-secret","REFRESHTOKEN":"rt-secret","scope":"todos"}"#,
        ["at-secret", "rt-secret"], [#""scope":"todos""#]
      ),
      (
        #"{"session":{"tokens":{"accessToken":"at-secret"},"user":"demo"}}"#,
        ["at-secret"], [#""user":"demo""#, #""session""#, #""tokens""#]
      ),
      (
        #"{"devices":[{"name":"phone","refreshToken":"rt-1"},{"name":"tablet","refreshToken":"rt-2"}]}"#,
        ["rt-1", "rt-2"], [#""name":"phone""#, #""name":"tablet""#]
      ),
      (#"[{"password":"hunter2","title":"buy milk"}]"#, ["hunter2"], [#""title":"buy milk""#]),
      (#"{"password":{"old":"hunter1","new":"hunter2"},"user":"demo"}"#, ["hunter1", "hunter2"], ["demo"]),
      (#"{"password":12345678,"user":"demo"}"#, ["12345678"], [#""user":"demo""#]),
      (#"{"password":["hunter1","hunter2"],"user":"demo"}"#, ["hunter1", "hunter2"], ["demo"]),
      (
        #"{"secretKey":"sk-secret","private_key":"pk-secret","app_key":"ak-secret","sortKey":"title"}"#,
        ["sk-secret", "pk-secret", "ak-secret"], [#""sortKey":"title""#]
      ),
    ]
  )
  func jsonFields(body: String, secrets: [String], kept: [String]) throws {
    let redacted = try redact(body)
    for secret in secrets {
      #expect(!redacted.contains(secret), "\(secret) leaked in \(redacted)")
    }
    for content in kept {
      #expect(redacted.contains(content), "\(content) lost in \(redacted)")
    }
    #expect(redacted.contains(Redactor.placeholder))
  }

  @Test("a key that only contains a credential name is not a credential field")
  func similarKeys() throws {
    let redacted = try redact(
      #"{"passwordHint":"pet's name","tokenType":"Bearer","sessionExpiresIn":900,"sidebar":"left"}"#)
    #expect(redacted.contains("pet's name"))
    #expect(redacted.contains(#""tokenType":"Bearer""#))
    #expect(redacted.contains(#""sessionExpiresIn":900"#))
    #expect(redacted.contains(#""sidebar":"left""#))
  }

  @Test(
    "a password's confirmation or numbered copy, a passphrase, a one-time code and a PKCE verifier are credentials, as JSON and as a form"
  )
  func passwordVariants() throws {
    let json =
      #"{"password_confirmation":"pw-1","password2":"pw-2","new_password1":"pw-3","passwordRepeat":"pw-4","passphrase":"pw-5","passcode":"pw-6","otp":"pw-7","totp":"pw-8","code_verifier":"pw-9","otp_enabled":true,"passwordHint":"pet's name"}"#
    let form =
      "password_confirmation=pw-1&password2=pw-2&new_password1=pw-3&passwordRepeat=pw-4&passphrase=pw-5&passcode=pw-6&otp=pw-7&totp=pw-8&code_verifier=pw-9&otp_enabled=1&passwordHint=pets"
    for (body, kept) in [
      (json, [#""otp_enabled":true"#, "pet's name"]), (form, ["otp_enabled=1", "passwordHint=pets"]),
    ] {
      let redacted = try redact(body)
      for number in 1...9 {
        #expect(!redacted.contains("pw-\(number)"), "pw-\(number) leaked in \(redacted)")
      }
      for content in kept {
        #expect(redacted.contains(content), "\(content) lost in \(redacted)")
      }
    }
  }

  // MARK: Text that is not valid JSON

  @Test(
    "a body that is not valid JSON is scanned, so a secret cannot slip through a parse failure",
    arguments: [
      (#"{"username":"demo","password":"hunter2"#, "hunter2", [#""username":"demo""#]),
      (#"{"username":"demo","password":"hunter2","#, "hunter2", [#""username":"demo""#]),
      (
        #"{"username":"demo", "Password" : "hunter2"} trailing"#, "hunter2",
        [#""username":"demo""#, "trailing"]
      ),
      (#"{"refreshToken":"rt-secret","deviceName":"ph"#, "rt-secret", [#""deviceName":"ph"#]),
      (#"{"accessToken":12345678,"expiresIn":9"#, "12345678", [#""expiresIn":9"#]),
      ("password=hunter2&x=1", "hunter2", ["x=1"]),
      ("username=demo&password=hunter2", "hunter2", ["username=demo"]),
      (
        "grant_type=refresh_token&refreshToken=rt-secret&client=app", "rt-secret",
        ["client=app", "grant_type"]
      ),
      ("PASSWORD = hunter2, next", "hunter2", ["next"]),
      // The name rule ignores `-`, `_` and `.`, and so does the scan of text.
      ("user=demo&pass_word=hunter22", "hunter22", ["user=demo"]),
      ("user=demo&Access.Token=at-12345", "at-12345", ["user=demo"]),
    ]
  )
  func looseText(body: String, secret: String, kept: [String]) throws {
    let redacted = try redact(body)
    #expect(!redacted.contains(secret), "\(secret) leaked in \(redacted)")
    for content in kept {
      #expect(redacted.contains(content), "\(content) lost in \(redacted)")
    }
  }

  @Test(
    "an escaped quote inside a secret does not end the redaction early",
    arguments: [
      #"{"username":"demo","password":"hun\"ter2"#,
      #"{"username":"demo","password":"hun\"ter2"} trailing"#,
      #"{"username":"demo","password":"hun\\\"ter2\"again"#,
    ]
  )
  func escapedQuote(body: String) throws {
    let redacted = try redact(body)
    #expect(!redacted.contains("ter2"), "the secret's tail leaked in \(redacted)")
    #expect(!redacted.contains("again"), "the secret's tail leaked in \(redacted)")
    #expect(redacted.contains(#""username":"demo""#))
  }

  // MARK: Size and encoding

  @Test("a body that is not UTF-8 is described by its size only")
  func notUTF8() throws {
    let body = Data("password=hunter2".utf8) + Data([0xFF, 0xFE])
    let redacted = try #require(Redactor.redact(body: body))
    #expect(redacted == "<18 bytes>")
    #expect(!redacted.contains("hunter2"))
  }

  @Test("an empty body has no description")
  func emptyBody() {
    #expect(Redactor.redact(body: Data()) == nil)
  }

  @Test("a long body is cut to the maximum length, with an ellipsis")
  func longBody() throws {
    let body = "x=" + String(repeating: "a", count: Redactor.maximumBodyLength * 2)
    let redacted = try redact(body)
    #expect(redacted.count == Redactor.maximumBodyLength + 1)
    #expect(redacted.hasPrefix("x=aaaa"))
    #expect(redacted.hasSuffix("…"))
  }

  @Test("a body at the maximum length is kept whole")
  func bodyAtLimit() throws {
    let body = String(repeating: "a", count: Redactor.maximumBodyLength)
    #expect(try redact(body) == body)
  }

  @Test("a long JSON body is redacted before it is cut, so a secret near the cut cannot leak")
  func longJSONBody() throws {
    let filler = String(repeating: "n", count: Redactor.maximumBodyLength - 40)
    let body = #"{"a":"\#(filler)","password":"hunter2-hunter2-hunter2-hunter2","user":"demo"}"#
    let redacted = try redact(body)
    #expect(!redacted.contains("hunter2"))
    #expect(redacted.contains(filler))
    #expect(redacted.count <= Redactor.maximumBodyLength + 1)
  }

  @Test("a long body that is cut mid-secret does not leak the part before the cut")
  func longLooseBody() throws {
    let filler = String(repeating: "n", count: Redactor.maximumBodyLength - 20)
    let body = #"{"a":"\#(filler)","password":"hunter2-hunter2-hunter2-hunter2"#
    let redacted = try redact(body)
    #expect(!redacted.contains("hunter2"))
    #expect(redacted.contains(filler))
  }
}
