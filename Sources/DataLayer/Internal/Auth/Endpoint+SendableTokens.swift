import NetworkLayer

extension Endpoint<IssuedTokens> {
  /// This login or refresh endpoint, refusing tokens that no request could carry: an empty access
  /// token, or a token with a control character (a CR or LF would end the header it goes in). A
  /// server that answers so is broken or hostile: the answer fails as `decodingFailed`, so nothing
  /// is saved and the session stays as it was.
  func refusingUnsendableTokens() -> Endpoint<IssuedTokens> {
    map { issued throws(NetworkError) in
      let tokens = [issued.accessToken] + (issued.refreshToken.map { [$0] } ?? [])
      let hasControl = tokens.contains {
        $0.unicodeScalars.contains { $0.properties.generalCategory == .control }
      }
      guard !issued.accessToken.isEmpty, !hasControl else {
        throw .decodingFailed(path: "", reason: "the answer's tokens cannot be sent in a header")
      }
      return issued
    }
  }
}
