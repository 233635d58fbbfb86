import Foundation

extension TokenExpiry {
  /// The expiry a JSON Web Token carries: its lifetime, `exp` less `iat`, when it says when it
  /// was issued, which is counted from the answer's arrival so that a device clock off the
  /// server's does not matter; else the moment in its `exp` claim; ``unknown`` when `token` is
  /// not a JWT or has no numeric `exp`.
  ///
  /// Only the payload, the middle of the token's three base64url parts, is read, and the
  /// signature is not checked: the client only learns when to renew, and the server still
  /// decides whether the token is valid.
  public static func jwt(_ token: String) -> TokenExpiry {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return .unknown }
    var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let payload = Data(base64Encoded: base64),
      let exp = (try? JSONDecoder().decode(Expiration.self, from: payload))?.exp, exp.isFinite
    else { return .unknown }
    let iat = (try? JSONDecoder().decode(IssuedAt.self, from: payload))?.iat
    if let iat, iat <= exp, (exp - iat).isFinite { return .after(seconds: exp - iat) }
    return .at(Date(timeIntervalSince1970: exp))
  }

  /// The claims read, each on its own so that one that is not a number spoils no other: seconds
  /// since 1970 by the server's clock, as RFC 7519 defines them.
  private struct Expiration: Decodable { var exp: Double? }
  private struct IssuedAt: Decodable { var iat: Double? }
}
