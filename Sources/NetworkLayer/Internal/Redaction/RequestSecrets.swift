import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The secrets one request carried, so that the same strings can be removed from any text the
/// client reports about it, wherever a server echoed them and whatever the key around them.
///
/// Learnt from: the credential of every credential header (a bearer token without its scheme,
/// the password of a Basic credential, each cookie's value, an API key), the URL's password,
/// the values of credential query items, and the values of credential fields in a JSON, form or
/// multipart body (see ``Redactor`` for what counts as a credential). Each is removed as sent and
/// without the spaces, line breaks or control characters at its ends, JSON-escaped (also with its
/// letters that are not ASCII written as `\u` escapes), and percent-encoded as a query and as a
/// path segment; and a text cut from a longer one that ends with the start of one loses that
/// start too.
///
/// Values shorter than ``minimumLength`` are not removed by value: they cannot be told apart
/// from ordinary text, and removing them would leave little of it. Name-based redaction still
/// covers them.
struct RequestSecrets: Sendable {
  /// The shortest value removed by value.
  static let minimumLength = 4
  /// The shortest start of a secret removed from the end of a text.
  private static let minimumTailLength = 4

  /// Every form to remove, longest first, so a longer form is not broken up by a shorter one.
  private let forms: [String]

  init(values: some Sequence<String>) {
    var forms: Set<String> = []
    // A secret with a NUL, a line break or a space at an end may be quoted without it.
    let values = Array(values)
    for value in values + values.compactMap(Self.withoutEdgeCharacters)
    where value.count >= Self.minimumLength {
      forms.insert(value)
      forms.insert(PercentEncoding.encode(value))
      forms.insert(PercentEncoding.segment(value))
      // JSON encoders differ on whether `/` is escaped and on whether a letter that is not ASCII
      // is (Django's and Flask's write `\u00e4`), and an echo of a JSON body inside JSON
      // escapes it twice.
      let letterCases: [JSONLetters] =
        value.unicodeScalars.allSatisfy(\.isASCII) ? [.kept] : JSONLetters.allCases
      for escapesSlash in [true, false] {
        for letters in letterCases {
          let escaped = Self.jsonEscaped(value, escapingSlash: escapesSlash, letters: letters)
          forms.insert(escaped)
          forms.insert(Self.jsonEscaped(escaped, escapingSlash: escapesSlash, letters: .kept))
        }
      }
    }
    self.forms = forms.sorted { $0.count > $1.count }
  }

  /// The secrets of `request`, and `credentials`: values its endpoint says it carries.
  init(request: URLRequest, credentials: [String] = []) {
    var values = credentials
    for (name, value) in request.allHTTPHeaderFields ?? [:] where Redactor.isCredentialHeader(name) {
      values += Self.credentials(inHeader: name, value: value)
    }
    if let url = request.url {
      if let password = url.password {
        values.append(password)
        // URLSession sends user-info as a Basic credential, which a server may echo.
        values.append(Data("\(url.user ?? ""):\(password)".utf8).base64EncodedString())
      }
      values += Self.credentialValues(inForm: url.query ?? "")
    }
    values += Self.credentialValues(inBodyOf: request)
    self.init(values: values)
  }

  /// The values of the credential fields in `request`'s body: a JSON, form or multipart body.
  static func credentialValues(inBodyOf request: URLRequest) -> [String] {
    guard let body = request.httpBody, !body.isEmpty else { return [] }
    if let boundary = multipartBoundary(inContentType: request.value(forHTTPHeaderField: "Content-Type")) {
      return credentialValues(inMultipart: body, boundary: boundary)
    }
    if let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
      var values: [String] = []
      collect(from: object, underCredential: false, into: &values)
      return values
    }
    return credentialValues(inForm: String(decoding: body, as: UTF8.self))
  }

  /// `text` with every learnt secret replaced by ``Redactor/placeholder``.
  func scrub(_ text: String) -> String {
    guard !forms.isEmpty, !text.isEmpty else { return text }
    var result = text
    for form in forms {
      // On Linux, Foundation's search matches a form whose NULs run past the text's end, then
      // traps replacing it; the standard library's is right, and slower.
      if form.utf8.contains(0) {
        if result.firstRange(of: form) != nil { result = result.replacing(form, with: Redactor.placeholder) }
      } else if result.contains(form) {
        result = result.replacingOccurrences(of: form, with: Redactor.placeholder)
      }
    }
    return result
  }

  /// `text`, which was cut from a longer one, scrubbed as by ``scrub(_:)`` and without the
  /// start of a secret that the cut left at its end.
  func scrub(cutText text: String) -> String {
    let result = scrub(text)
    for form in forms {
      var length = form.count - 1
      while length >= Self.minimumTailLength {
        if result.hasSuffix(form.prefix(length)) {
          return String(result.dropLast(length)) + Redactor.placeholder
        }
        length -= 1
      }
    }
    return result
  }

  /// `error` with every text it carries scrubbed.
  func scrub(_ error: NetworkError) -> NetworkError {
    guard !forms.isEmpty else { return error }
    switch error {
    case .badStatus(let code, let excerpt):
      return .badStatus(code: code, bodyExcerpt: excerpt.map { scrub($0) })
    case .refused(let status, let message, let fieldErrors):
      return .refused(
        status: status, message: message.map { scrub($0) },
        fieldErrors: fieldErrors.mapValues { $0.map { scrub($0) } })
    case .decodingFailed(let path, let reason):
      return .decodingFailed(path: scrub(path), reason: scrub(reason))
    case .unacceptableContentType(let received, let accepted):
      return .unacceptableContentType(received: received.map { scrub($0) }, accepted: accepted)
    case .invalidURL(let detail):
      return .invalidURL(scrub(detail))
    case .invalidRequest(let detail):
      return .invalidRequest(scrub(detail))
    case .refreshFailed(let reason):
      return .refreshFailed(reason: scrub(reason))
    default:
      return error
    }
  }

  private static func credentials(inHeader name: String, value: String) -> [String] {
    var values = [value]
    let lowered = name.lowercased()
    if lowered == "authorization" || lowered == "proxy-authorization" {
      let parts = value.split(separator: " ", maxSplits: 1)
      if parts.count == 2 {
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        values.append(credential)
        if parts[0].lowercased() == "basic", let data = Data(base64Encoded: credential) {
          let decoded = String(decoding: data, as: UTF8.self)
          values.append(decoded)
          if let colon = decoded.firstIndex(of: ":") {
            values.append(String(decoded[decoded.index(after: colon)...]))
          }
        }
      }
    } else if lowered == "cookie" || lowered == "set-cookie" {
      for pair in value.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { values.append(parts[1].trimmingCharacters(in: .whitespaces)) }
      }
    }
    return values
  }

  /// Values of credential fields in `name=value&…` text (a query or a form body), both as
  /// written and decoded.
  private static func credentialValues(inForm text: String) -> [String] {
    guard text.contains("=") else { return [] }
    var values: [String] = []
    for item in text.split(separator: "&") {
      let parts = item.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let name = String(parts[0])
      guard Redactor.isCredentialName(name.removingPercentEncoding ?? name) else { continue }
      let raw = String(parts[1])
      values.append(raw)
      let plus = raw.replacingOccurrences(of: "+", with: " ")
      if let decoded = plus.removingPercentEncoding { values.append(decoded) }
    }
    return values
  }

  /// The boundary of a `multipart/form-data` content type, or `nil` for any other type.
  private static func multipartBoundary(inContentType contentType: String?) -> String? {
    guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data"),
      let range = contentType.range(of: "boundary=")
    else { return nil }
    let boundary = contentType[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: ["\""])
    return boundary.isEmpty ? nil : boundary
  }

  /// The text of every part of a `multipart/form-data` body whose name is a credential's.
  ///
  /// Searched as bytes, and only a credential part is read as text: an upload's files can be
  /// large, and this runs for every attempt a monitor sees.
  private static func credentialValues(inMultipart body: Data, boundary: String) -> [String] {
    let delimiter = Data("--\(boundary)".utf8)
    let headerEnd = Data("\r\n\r\n".utf8)
    var values: [String] = []
    var partStart: Data.Index?
    var searchStart = body.startIndex
    while let found = body.range(of: delimiter, in: searchStart..<body.endIndex) {
      defer {
        partStart = found.upperBound
        searchStart = found.upperBound
      }
      guard let partStart, let end = body.range(of: headerEnd, in: partStart..<found.lowerBound) else {
        continue
      }
      let header = String(decoding: body[partStart..<end.lowerBound], as: UTF8.self)
      guard let name = Self.dispositionName(in: header), Redactor.isCredentialName(name) else { continue }
      // The part ends with the line break before the delimiter.
      let valueEnd = max(end.upperBound, found.lowerBound - 2)
      let value = String(decoding: body[end.upperBound..<valueEnd], as: UTF8.self)
      if !value.isEmpty { values.append(value) }
    }
    return values
  }

  /// The `name` parameter of a part's `Content-Disposition`, not the end of its `filename`, in
  /// whichever order the two come.
  private static func dispositionName(in header: String) -> String? {
    var searchStart = header.startIndex
    while let found = header.range(of: "name=\"", range: searchStart..<header.endIndex) {
      searchStart = found.upperBound
      if found.lowerBound > header.startIndex {
        let before = header[header.index(before: found.lowerBound)]
        guard before == ";" || before == " " || before == "\t" else { continue }
      }
      guard let nameEnd = header[found.upperBound...].firstIndex(of: "\"") else { return nil }
      return String(header[found.upperBound..<nameEnd])
    }
    return nil
  }

  private static func collect(from value: Any, underCredential: Bool, into values: inout [String]) {
    switch value {
    case let object as [String: Any]:
      for (key, nested) in object {
        collect(
          from: nested, underCredential: underCredential || Redactor.isCredentialName(key), into: &values)
      }
    case let array as [Any]:
      for nested in array { collect(from: nested, underCredential: underCredential, into: &values) }
    case let text as String where underCredential:
      values.append(text)
    case let number as NSNumber where underCredential:
      values.append(number.stringValue)
    default:
      break
    }
  }

  /// How a JSON encoder writes a character that is not ASCII: as it is, or as `\u` escapes of
  /// its UTF-16 code units with lower-case (Python's) or upper-case hex digits.
  private enum JSONLetters: CaseIterable {
    case kept, lowercaseEscapes, uppercaseEscapes
  }

  /// What a secret may be quoted without at its ends.
  private static let edgeCharacters = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)

  /// `value` without the whitespace and control characters at its ends, or `nil` if it has none.
  private static func withoutEdgeCharacters(_ value: String) -> String? {
    let trimmed = value.trimmingCharacters(in: edgeCharacters)
    return trimmed == value ? nil : trimmed
  }

  /// `value` as it appears inside a JSON string.
  private static func jsonEscaped(_ value: String, escapingSlash: Bool, letters: JSONLetters) -> String {
    var result = ""
    for scalar in value.unicodeScalars {
      if !scalar.isASCII, letters != .kept {
        for unit in String(scalar).utf16 {
          let hex = String(unit, radix: 16, uppercase: letters == .uppercaseEscapes)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
        continue
      }
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "/" where escapingSlash: result += "\\/"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
