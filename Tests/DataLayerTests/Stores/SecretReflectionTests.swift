import DataLayer
import Foundation
import NetworkLayer
import Testing

@Suite("Token-holding values hide their secrets", .timeLimit(.minutes(1)))
struct SecretReflectionTests {
  /// Every token here contains "secret", so one search finds any leak.
  static let tokens = FileTokenStoreTests.tokens(1)
  static let pair = TokenPairDTO(accessToken: "access-secret", refreshToken: "refresh-secret", expiresIn: 60)

  static func holders(in directory: TemporaryDirectory) -> [(name: String, value: Any)] {
    let fileStore = FileTokenStore(fileURL: directory.file("tokens.json"))
    fileStore.save(tokens)
    let plain = URLSessionHTTPClient(baseURL: URL(filePath: "/"), session: .shared)
    return [
      ("AuthTokens", tokens),
      ("Optional<AuthTokens>", Optional(tokens) as Any),
      ("[AuthTokens]", [tokens]),
      ("TokenPairDTO", pair),
      ("IssuedTokens", pair.issued),
      (
        "IssuedTokens, no rotation",
        IssuedTokens(accessToken: "access-secret", refreshToken: nil, expiry: .unknown)
      ),
      ("FileTokenStore", fileStore),
      ("InMemoryTokenStore", InMemoryTokenStore(tokens)),
      (
        "RemoteSessionRepository",
        RemoteSessionRepository(
          client: plain, tokenStore: InMemoryTokenStore(tokens), sessionEvents: AsyncStream { _ in })
      ),
    ]
  }

  @Test("String(describing:), String(reflecting:), dump and Mirror show no token")
  func noSecretInAnyRendering() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    for (name, value) in Self.holders(in: directory) {
      var dumped = ""
      dump(value, to: &dumped)
      let renderings = [
        "describing": String(describing: value),
        "reflecting": String(reflecting: value),
        "dump": dumped,
        "mirror": mirrorLeaves(of: value).joined(separator: "\n"),
      ]
      for (style, text) in renderings {
        #expect(!text.contains("secret"), "\(name), \(style): \(text)")
      }
    }
  }

  @Test("the redacted renderings still say what the value is: the placeholder, the expiry")
  func renderingsStayUseful() {
    let mirror = Mirror(reflecting: Self.tokens)
    #expect(mirror.children.map(\.label) == ["accessToken", "refreshToken", "expiresAt", "issuedAt"])
    #expect(mirror.children.first?.value as? String == Redactor.placeholder)
    #expect(String(describing: Self.tokens).contains(Redactor.placeholder))
    let pair = Self.pair
    #expect(Mirror(reflecting: pair).children.map(\.label) == ["accessToken", "refreshToken", "expiresIn"])
    #expect(String(reflecting: pair).contains("expiresIn: 60"))
    #expect(String(reflecting: pair.issued).contains("expiry: after(seconds: 60.0)"))
  }
}

/// Every value reachable through `value`'s mirror, as text, depth first.
private func mirrorLeaves(of value: Any, depth: Int = 0) -> [String] {
  let mirror = Mirror(reflecting: value)
  guard depth < 12, !mirror.children.isEmpty else { return [String(describing: value)] }
  return mirror.children.flatMap { child in
    ["\(child.label ?? "_")"] + mirrorLeaves(of: child.value, depth: depth + 1)
  }
}
