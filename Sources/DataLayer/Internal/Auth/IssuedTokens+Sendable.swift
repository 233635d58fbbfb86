import NetworkLayer

extension IssuedTokens {
  /// These tokens, or `decodingFailed` when no request could carry them: an empty access token,
  /// one with a space at either end (servers drop it from a header's value, so the token would
  /// arrive changed), or a token with a control character (a CR or LF would end the header it
  /// goes in). A server that answers so is broken or hostile; failing here saves nothing and
  /// keeps the session as it was.
  func sendable() throws(NetworkError) -> IssuedTokens {
    let hasControl = [accessToken, refreshToken ?? ""].contains {
      $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    let padded = accessToken.first == " " || accessToken.last == " "
    guard !accessToken.isEmpty, !padded, !hasControl else {
      throw .decodingFailed(path: "", reason: "the answer's tokens cannot be sent in a header")
    }
    return self
  }
}
