extension Redactor {
  /// Fragments of header names that mark an API key or token (`X-Api-Key`, `X-Auth-Token`,
  /// `X-Client-Secret`), on top of the headers the redactor hides by name.
  static let credentialHeaderFragments = ["api-key", "apikey", "api_key", "token", "secret", "password"]

  /// Whether a header called `name` carries a credential: one whose value the redactor hides
  /// (`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`) or an API-key or token
  /// header. The transport drops these from a redirect that leaves the request's origin.
  static func isCredentialHeader(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return secretHeaders.contains(lowered) || credentialHeaderFragments.contains { lowered.contains($0) }
  }
}
