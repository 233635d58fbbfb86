public import Foundation
import LayeredSupport

/// Removes credentials from what the client reports, so that no log line, event or error
/// description can carry a token or a password.
///
/// - Headers: the values of `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`,
///   API-key headers (`X-API-Key`, `X-Auth-Token`, …), any header whose name ends in `key`
///   (`Ocp-Apim-Subscription-Key`, `X-Master-Key`; not `Idempotency-Key`) and any header whose
///   name is a credential name (below) are replaced; the scheme of an authorization value
///   (`Bearer`) is kept because it helps debugging and reveals nothing.
/// - URLs: user-info (`user:password@`) is replaced whole, and so is the value of every query
///   item with a credential name (`access_token`, `token`, `api_key`, `key`, `password`,
///   `secret`, `signature`, `X-Amz-Signature`, …).
/// - Bodies: in JSON, the values of keys with a credential name are replaced, at any depth.
///   Text that is not valid JSON, such as a truncated body or a form, is scanned for the same
///   names followed by `:` or `=`, so a secret cannot slip through a parse failure.
///
/// A credential name is compared without case, `-`, `_` or `.`: it is `key`, `sig`, `pwd`,
/// `pass`, `access`, `refresh` or `jwt` (the token fields of many JWT backends), `auth`
/// (Firebase's database takes its ID token so), `appid` (OpenWeather's key) or `sid`, or it ends
/// in `token`, `secret`, `password`, `passwd`, `passphrase`, `passcode`, `otp`, `codeverifier`
/// (PKCE's), `signature`, `credential(s)`, `assertion` (OAuth's signed JWTs), `sessionid`,
/// `sessid` or `sessionkey` (a session's identifier is its bearer's credential), or `apikey`,
/// `appkey`, `accesskey`, `secretkey`, `privatekey`, `clientkey`, `masterkey` or
/// `subscriptionkey`; either of these may be followed by `confirmation`, `confirm`, `repeat` or
/// `again` and by a number. So `refreshToken`, `id_token`, `client_secret`, `access_key`,
/// `PHPSESSID`, `password_confirmation` and `new_password2` are credentials, `tokenType`,
/// `passwordHint`, `otp_enabled`, `sessionExpiresIn` and `sortKey` are not. A form field named as
/// Rails and PHP name them is a credential when any name in its brackets is: `user[password]`,
/// `password[]`.
///
/// An app adds its backend's own names with ``addCredentialNames(_:)`` and
/// ``addCredentialHeaders(_:)``. What the request itself carried is also removed by value,
/// wherever it is echoed (see ``RequestSummary`` and ``NetworkError``), not only where a name
/// announces it, and so is every value its endpoint lists in ``EndpointRequest/credentials``.
public enum Redactor {
  /// What replaces a secret.
  public static let placeholder = "<redacted>"

  /// The most characters of a body kept in a redacted copy.
  public static let maximumBodyLength = 2_000

  /// Lower-cased names of the headers that carry credentials whatever they are called, beyond
  /// those matched by the credential-name rule. Also the headers that must not follow a
  /// request to another origin.
  static let secretHeaders: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
    "x-auth-token", "x-access-token", "x-refresh-token", "x-csrf-token", "x-xsrf-token",
    "x-amz-security-token",
  ]

  /// Names an app added, normalised, and the pattern built from all names.
  private struct Added {
    var names: Set<String> = []
    var headers: Set<String> = []
    var expression = looseCredentialExpression(exactNames: exactCredentialNames)
  }

  private static let added = Locked(Added())

  /// Adds names of JSON keys, form fields and query items that hold credentials in the app's
  /// backend (`rt`, `ticket`), for every client in the process. They are compared as the
  /// built-in ones are, without case, `-`, `_` or `.`; names can be added, never removed. Call
  /// it at launch, before the first request.
  public static func addCredentialNames(_ names: some Sequence<String>) {
    added.withLock { added in
      added.names.formUnion(names.map(normalized))
      added.expression = looseCredentialExpression(exactNames: exactCredentialNames.union(added.names))
    }
  }

  /// Adds header names whose values are credentials (`X-Session`), for every client in the
  /// process. Like the built-in ones, they are redacted and never follow a redirect to another
  /// origin.
  public static func addCredentialHeaders(_ names: some Sequence<String>) {
    added.withLock { $0.headers.formUnion(names.map { $0.lowercased() }) }
  }

  /// Whether a header called `name` carries a credential.
  static func isCredentialHeader(_ name: String) -> Bool {
    let lowercased = name.lowercased()
    return secretHeaders.contains(lowercased) || added.withLock { $0.headers.contains(lowercased) }
      || isCredentialName(name)
      || (lowercased.hasSuffix("key") && !keyHeadersWithoutSecrets.contains(lowercased))
  }

  /// Headers named like a key that hold none: a retry's identity, a handshake's nonce.
  private static let keyHeadersWithoutSecrets: Set<String> = ["idempotency-key", "sec-websocket-key"]

  /// Whether a JSON key, form field or query item called `name` holds a credential, also when a
  /// confirmation word or a number follows the credential's name (`password_confirmation`,
  /// `new_password2`), or it is one of the names of a bracketed one (`user[password]`).
  static func isCredentialName(_ name: String) -> Bool {
    if name.contains("[") {
      return name.split(whereSeparator: { $0 == "[" || $0 == "]" }).contains { isCredentialName(String($0)) }
    }
    let normalized = normalized(name)
    return namesCredential(normalized) || namesCredential(stem(of: normalized))
      || added.withLock { $0.names.contains(normalized) }
  }

  /// Whether a normalized name is a credential's by the built-in rule.
  private static func namesCredential(_ name: String) -> Bool {
    exactCredentialNames.contains(name) || credentialSuffixes.contains { name.hasSuffix($0) }
  }

  /// A normalized name without the number and then the confirmation word it ends with, if any.
  private static func stem(of name: String) -> String {
    var stem = Substring(name)
    while stem.last?.isASCII == true, stem.last?.isNumber == true { stem.removeLast() }
    if let word = confirmationWords.first(where: { stem.hasSuffix($0) }) { stem.removeLast(word.count) }
    return String(stem)
  }

  /// The words after a credential's name in a form that asks for it twice.
  private static let confirmationWords = ["confirmation", "confirm", "repeat", "again"]

  /// `name` lower-cased, without `-`, `_` or `.`: how a JSON key, form field or query item is
  /// compared by name here and where an error body's sentence is looked for.
  static func normalized(_ name: String) -> String {
    var normalized = ""
    for scalar in name.unicodeScalars where scalar != "-" && scalar != "_" && scalar != "." {
      normalized.unicodeScalars.append(scalar)
    }
    return normalized.lowercased()
  }

  private static let exactCredentialNames: Set<String> = [
    "key", "sig", "pwd", "pass", "access", "refresh", "jwt", "auth", "appid", "sid",
  ]
  private static let credentialSuffixes = [
    "token", "secret", "password", "passwd", "passphrase", "passcode", "otp", "codeverifier", "signature",
    "credential", "credentials", "assertion", "sessionid", "sessid", "sessionkey",
    "apikey", "appkey", "accesskey", "secretkey", "privatekey", "clientkey", "masterkey", "subscriptionkey",
  ]

  /// `headers` with every credential value replaced.
  public static func redact(headers: [String: String]) -> [String: String] {
    var redacted = headers
    for (name, value) in headers where isCredentialHeader(name) {
      redacted[name] = redactedCredential(value)
    }
    return redacted
  }

  /// `url` as text with its user-info and the values of credential query items replaced.
  public static func redact(url: URL) -> String {
    let text = url.absoluteString
    guard text.contains("@") || text.contains("?") else { return text }
    var result = ""
    var rest = Substring(text)
    if let schemeEnd = rest.range(of: "://") {
      result += rest[..<schemeEnd.upperBound]
      rest = rest[schemeEnd.upperBound...]
      let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
      let authority = rest[..<authorityEnd]
      if let at = authority.lastIndex(of: "@") {
        result += placeholder + authority[at...]
      } else {
        result += authority
      }
      rest = rest[authorityEnd...]
    }
    guard let queryStart = rest.firstIndex(of: "?") else { return result + rest }
    result += rest[...queryStart]
    let afterMark = rest[rest.index(after: queryStart)...]
    let queryEnd = afterMark.firstIndex(of: "#") ?? afterMark.endIndex
    result += afterMark[..<queryEnd].split(separator: "&", omittingEmptySubsequences: false)
      .map { item -> String in
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard parts.count == 2, isCredentialName(name.removingPercentEncoding ?? name) else {
          return String(item)
        }
        return name + "=" + placeholder
      }
      .joined(separator: "&")
    return result + afterMark[queryEnd...]
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
    redact(text: text, secrets: RequestSecrets(values: []))
  }

  /// `text` with credential fields and the given secrets replaced, shortened to
  /// ``maximumBodyLength``. Secrets are removed before the text is cut, and from every string
  /// inside JSON once it is unescaped, so an echo that escapes them twice still loses them.
  static func redact(text: String, secrets: RequestSecrets) -> String {
    let scrubbed = secrets.scrub(text)
    let redacted = redactJSON(scrubbed, secrets: secrets) ?? redactLoosely(scrubbed)
    guard redacted.count > maximumBodyLength else { return redacted }
    return String(redacted.prefix(maximumBodyLength)) + "…"
  }

  private static func redactedCredential(_ value: String) -> String {
    let parts = value.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].allSatisfy(\.isLetter) else { return placeholder }
    return "\(parts[0]) \(placeholder)"
  }

  private static func redactJSON(_ text: String, secrets: RequestSecrets, depth: Int = 0) -> String? {
    guard text.first == "{" || text.first == "[" || text.first?.isWhitespace == true,
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]),
      object is [String: Any] || object is [Any],
      let data = try? JSONSerialization.data(
        withJSONObject: redactValues(in: object, secrets: secrets, depth: depth),
        options: [.sortedKeys, .withoutEscapingSlashes]
      )
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func redactValues(in value: Any, secrets: RequestSecrets, depth: Int) -> Any {
    switch value {
    case let object as [String: Any]:
      var result: [String: Any] = [:]
      for (key, nested) in object {
        result[key] =
          isCredentialName(key) ? placeholder : redactValues(in: nested, secrets: secrets, depth: depth)
      }
      return result
    case let array as [Any]:
      return array.map { redactValues(in: $0, secrets: secrets, depth: depth) }
    case let text as String:
      // A string can hold JSON of its own, such as a request body a server echoes back: its
      // credential fields are redacted too, a couple of levels deep.
      let scrubbed = secrets.scrub(text)
      guard depth < 2 else { return scrubbed }
      return redactJSON(scrubbed, secrets: secrets, depth: depth + 1) ?? scrubbed
    default:
      return value
    }
  }

  /// For text that is not valid JSON: replaces whatever follows a credential name and `:` or
  /// `=`: a quoted value up to its closing quote (or the end of a truncated text), any other
  /// value up to the next comma, ampersand, brace or space.
  private static func redactLoosely(_ text: String) -> String {
    guard let expression = added.withLock({ $0.expression }) else { return text }
    return expression.stringByReplacingMatches(
      in: text,
      range: NSRange(text.startIndex..., in: text),
      withTemplate: "$1\"\(placeholder)\""
    )
  }

  /// The credential-name rule of ``isCredentialName(_:)`` as a pattern, built from the same
  /// lists so the two cannot drift apart: a name ending in a credential suffix, or one of the
  /// exact names, with `-`, `_` or `.` allowed between letters as that rule ignores them. Built
  /// when names are added: compiling it costs far more than matching.
  ///
  /// A quoted value skips escaped characters: a password containing `\"` would otherwise end the
  /// match early and leave the rest of the secret in the text. The look-behind keeps `monkey=`
  /// from being read as `key=`.
  private static func looseCredentialExpression(exactNames: Set<String>) -> NSRegularExpression? {
    func separable(_ word: String) -> String {
      word.map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: "[-_.]?")
    }
    let suffixes = credentialSuffixes.map(separable).joined(separator: "|")
    let exact = exactNames.sorted().map(separable).joined(separator: "|")
    let confirmation = confirmationWords.map(separable).joined(separator: "|")
    // A name may end a bracketed path (`user[password]`) or name a list (`password[]`), as
    // written or percent-encoded in a form.
    let bracket = #"(?:\]|%5[Dd]|\[\]|%5[Bb]%5[Dd])?"#
    let name =
      #"(?:[A-Za-z0-9_.\-]*(?:"# + suffixes + ")|" + exact + #")(?:[-_.]?(?:"# + confirmation
      + #"))?[-_.]?[0-9]*"# + bracket
    let pattern = #"(?<![A-Za-z0-9_.\-])("?(?:"# + name + #")"?\s*[:=]\s*)("(?:[^"\\]|\\.?)*"?|[^,&}\s]*)"#
    return try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
  }
}
