public import Foundation

/// Removes credentials from what the client reports, so that no log line, event or error
/// description can carry a token or a password.
///
/// - Headers: the values of `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`
///   are replaced; the scheme of an authorization value (`Bearer`) is kept because it helps
///   debugging and reveals nothing.
/// - Bodies: in JSON, the values of `password`, `accessToken`, `refreshToken`, their snake_case
///   forms and `client_secret` (keys compared without case, at any depth) are replaced. Text
///   that is not valid JSON, such as a truncated body, is scanned for the same keys, so a secret
///   cannot slip through a parse failure.
public enum Redactor {
  /// What replaces a secret.
  public static let placeholder = "<redacted>"

  /// The most characters of a body kept in a redacted copy.
  public static let maximumBodyLength = 2_000

  static let secretHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]
  static let secretFields: Set<String> = [
    "password", "accesstoken", "refreshtoken", "access_token", "refresh_token", "client_secret",
  ]

  /// `headers` with every credential value replaced.
  public static func redact(headers: [String: String]) -> [String: String] {
    var redacted = headers
    for (name, value) in headers where secretHeaders.contains(name.lowercased()) {
      redacted[name] = redactedCredential(value)
    }
    return redacted
  }

  /// `body` as text with credential fields replaced, shortened to ``maximumBodyLength``;
  /// `nil` for an empty body. A body that is not UTF-8 is described by its size only.
  public static func redact(body: Data) -> String? {
    guard !body.isEmpty else { return nil }
    guard let text = String(data: body, encoding: .utf8) else { return "<\(body.count) bytes>" }
    return redact(text: text)
  }

  /// `text` with credential fields replaced, shortened to ``maximumBodyLength``.
  public static func redact(text: String) -> String {
    let redacted = redactJSON(text) ?? redactLoosely(text)
    guard redacted.count > maximumBodyLength else { return redacted }
    return String(redacted.prefix(maximumBodyLength)) + "…"
  }

  private static func redactedCredential(_ value: String) -> String {
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].allSatisfy(\.isLetter) else { return placeholder }
    return "\(parts[0]) \(placeholder)"
  }

  private static func redactJSON(_ text: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
      object is [String: Any] || object is [Any],
      let data = try? JSONSerialization.data(
        withJSONObject: redactValues(in: object),
        options: [.sortedKeys, .withoutEscapingSlashes]
      )
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func redactValues(in value: Any) -> Any {
    switch value {
    case let object as [String: Any]:
      var result: [String: Any] = [:]
      for (key, nested) in object {
        result[key] = secretFields.contains(key.lowercased()) ? placeholder : redactValues(in: nested)
      }
      return result
    case let array as [Any]:
      return array.map(redactValues(in:))
    default:
      return value
    }
  }

  /// For text that is not valid JSON: replaces whatever follows `"key":` or `key=`, for every
  /// secret key: a quoted value up to its closing quote (or the end of a truncated text), any
  /// other value up to the next comma, ampersand, brace or space.
  private static func redactLoosely(_ text: String) -> String {
    var result = text
    for field in secretFields {
      // A quoted value skips escaped characters: a password containing `\"` would otherwise end
      // the match early and leave the rest of the secret in the text.
      let pattern = #"("?\#(field)"?\s*[:=]\s*)("(?:[^"\\]|\\.?)*"?|[^,&}\s]*)"#
      guard let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]) else {
        continue
      }
      let range = NSRange(result.startIndex..., in: result)
      result = expression.stringByReplacingMatches(
        in: result,
        range: range,
        withTemplate: "$1\"\(placeholder)\""
      )
    }
    return result
  }
}
