import Foundation

/// Reads what a server said when it refused a request, in the shapes most backends use (the
/// parser behind ``RefusalFormat/standard``): RFC 9457 problem details (`application/problem+json`:
/// `detail` or `title`, and per-field `errors` or `invalid-params`); a list of errors that each
/// name a field (JSON:API's, Spring's, FastAPI's `detail`, express-validator's, Symfony's and API
/// Platform's `violations` by `propertyPath`, Zod's `issues` and flattened `fieldErrors`,
/// Litestar's `extra` by `key`); and the
/// `{"title": ["This field may not be blank."]}` object of many frameworks, each field with a list
/// of messages, and `non_field_errors` or `detail` as the sentence for the whole form; `errors`
/// that nest (marshmallow's, filed by webargs under the request's `json` or `query`, or by
/// Flask-AppBuilder and Superset under `message`) are read by dotted path, where a text under
/// `detail` is Phoenix's sentence for the whole request, and so are PocketBase's, each a `code`
/// and a `message` under `data`. Each is
/// also read inside an `error` object, the envelope of Stripe's, Google's, Strapi's and many
/// hand-written APIs' errors, where the envelope itself may name its field (Stripe's `param`,
/// OData's `target`), Google's `details` list its `fieldViolations` and Strapi's hold `errors`
/// located by `path`. Any other body stays a bad status with its excerpt.
///
/// Whatever any format reads goes through ``tidied(_:)``: each text loses the whitespace around
/// it and a blank one goes, and a field whose name is a credential name (see ``Redactor``) keeps
/// only messages that read as sentences, since anything else under it could be an echoed secret.
enum RefusalBody {
  /// The sentence and the field errors in `body`; `nil` when the body is not a JSON object that
  /// says anything.
  static func read(_ body: Data, contentType: String?) -> RefusalFormat.Refusal? {
    guard let outer = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
    let isProblem = contentType.flatMap(MediaType.effective(inContentType:))?.subtype == "problem+json"
    // What an `error` envelope says comes first; one that says nothing leaves the body around it.
    // Problem details are an envelope of their own: an `error` member there is an extension.
    if !isProblem, let envelope = outer["error"] as? [String: Any],
      let refusal = read(envelope, isProblem: false, isEnvelope: true)
    {
      return refusal
    }
    return read(outer, isProblem: isProblem, isEnvelope: false)
  }

  /// The sentence and the field errors in one JSON object: the body, or its `error` envelope.
  private static func read(_ object: [String: Any], isProblem: Bool, isEnvelope: Bool) -> RefusalFormat
    .Refusal?
  {
    var object = object
    let errorsDetail = wholeRequestDetail(in: object["errors"])
    if errorsDetail != nil, var errors = object["errors"] as? [String: Any] {
      errors["detail"] = nil
      object["errors"] = errors
    }
    var fieldErrors: [String: [String]] = [:]
    // FastAPI's `detail` lists field errors; as an object it says why in its own words instead.
    for key in listKeys + envelopeListKeys where key != "detail" || object[key] is [Any] {
      fieldErrors.merge(fields(in: object[key]), uniquingKeysWith: +)
    }
    // Litestar lists its entries under `extra`; an object there is whatever else a server adds.
    if let entries = object["extra"] as? [Any] { fieldErrors.merge(fields(in: entries), uniquingKeysWith: +) }
    // Flask-AppBuilder (and so Superset) files marshmallow's errors under `message`.
    if let filed = object["message"] as? [String: Any] {
      fieldErrors.merge(nestedFields(in: filed), uniquingKeysWith: +)
    }
    // PocketBase files each field's error under `data`, as a code and a message.
    if let filed = object["data"] as? [String: Any] {
      fieldErrors.merge(codedFields(in: filed), uniquingKeysWith: +)
    }
    // An envelope may itself be about one field: Stripe's `param`, OData's `target`.
    if isEnvelope, let message = object["message"] as? String,
      let field = ["param", "field", "target"].lazy.compactMap({ object[$0] as? String }).first
    {
      fieldErrors[field, default: []].append(message)
    }
    if !isProblem {
      for (key, value) in object where !sentenceKeys.contains(key) && !listKeys.contains(key) {
        if let messages = value as? [Any], let texts = strings(messages) {
          fieldErrors[key, default: []] += texts
        }
      }
    }
    let keys = isProblem ? ["detail", "title"] : sentenceKeys
    let sentence = keys.lazy.compactMap { words(object[$0]) }.first ?? errorsDetail.flatMap(words)
    guard isProblem || !fieldErrors.isEmpty else { return nil }
    return (sentence, fieldErrors)
  }

  /// `refusal` as a screen may show it, whichever format read it: each text without the
  /// whitespace around it (Pyramid ends its messages with blank lines), no blank text and no field
  /// left without a message, and the messages under a credential name that do not read as
  /// sentences replaced. The request's own secrets are scrubbed from every text afterwards, as
  /// from any error's.
  static func tidied(_ refusal: RefusalFormat.Refusal) -> RefusalFormat.Refusal {
    var fieldErrors: [String: [String]] = [:]
    for (field, messages) in refusal.fieldErrors {
      guard let texts = strings(messages) else { continue }
      let isCredential = Redactor.isCredentialName(field)
      fieldErrors[field] = texts.map { !isCredential || $0.contains(" ") ? $0 : Redactor.placeholder }
    }
    return (strings(refusal.message)?.first, fieldErrors)
  }

  /// The server's sentence in the excerpt of an error body answered with `status` (see
  /// ``sentence(inExcerpt:)``), unless it only names that status ("Bad Request", Spring Boot's
  /// `"error": "Conflict"`, Falcon's "404 Not Found", aiohttp's "404: Not Found"): that says
  /// nothing the status does not, so the screen's own words are shown instead.
  static func sentence(inExcerpt excerpt: String, status: Int) -> String? {
    guard let sentence = sentence(inExcerpt: excerpt), !isReasonPhrase(sentence, of: status),
      !isCode(sentence)
    else {
      return nil
    }
    return sentence
  }

  /// The `detail`, `non_field_errors`, `message`, `msg`, `error_message`, `error_description`,
  /// `error`, `reason` (Vapor's), `description` (Falcon's, whose `title` may be only its status
  /// line) or `title` of a JSON error body's excerpt, in any case and with any separators, a text
  /// or a list of texts; or else the `message` of an `error` object (Google's and Firebase's
  /// shape); or else the `message` or `reason` of a `detail` object (FastAPI's `HTTPException`
  /// given a dict, FastAPI Users' refusals); or else the text of an `errors` object's `detail`
  /// (Phoenix's); or else what an `errors` list says (see ``sentence(inErrorsList:)``); or else a
  /// one-line plain text. Any error body, not only a refusal's, so `title` here is a sentence
  /// rather than a field. OAuth's `error` is a code (`invalid_grant`), so its `error_description`
  /// comes first; Kubernetes' `reason` is one (`NotFound`), so its `message` does.
  private static func sentence(inExcerpt excerpt: String) -> String? {
    guard let body = try? JSONSerialization.jsonObject(with: Data(excerpt.utf8)) as? [String: Any] else {
      return sentence(inCutJSON: excerpt) ?? sentence(inPlainText: excerpt)
    }
    let object = byName(body)
    let keys = [
      "detail", "nonfielderrors", "formerrors", "message", "msg", "errormessage", "errordescription", "error",
      "reason", "description", "title",
    ]
    let nested = byName(object["error"] as? [String: Any] ?? [:])
    let detail = byName(object["detail"] as? [String: Any] ?? [:])
    return keys.lazy.compactMap { words(object[$0]) }.first
      ?? words(nested["message"])
      ?? ["message", "reason"].lazy.compactMap { words(detail[$0]) }.first
      ?? wholeRequestDetail(in: object["errors"]).flatMap(words)
      ?? sentence(inErrorsList: object["errors"])
  }

  /// The text an `errors` object holds under `detail`: Phoenix's sentence for the whole request
  /// (its error view's, and what its apps' fallback controllers write), where each field's
  /// messages are a list.
  private static func wholeRequestDetail(in errors: Any?) -> String? {
    (errors as? [String: Any])?["detail"] as? String
  }

  /// `object` keyed by each key's name as the redactor compares names (lower case, without `-`,
  /// `_` or `.`), so a sentence is found under `Message` (ASP.NET Web API's), `errorMessage` (AWS
  /// Lambda's) or `error_message`.
  private static func byName(_ object: [String: Any]) -> [String: Any] {
    Dictionary(
      object.map { key, value in (Redactor.normalized(key), value) }, uniquingKeysWith: { first, _ in first })
  }

  /// Whether `sentence` is the reason phrase of `status`, alone or after the status itself.
  private static func isReasonPhrase(_ sentence: String, of status: Int) -> Bool {
    var text = Substring(sentence.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "."))))
    if text.hasPrefix(String(status)) {
      text = text.dropFirst(String(status).count).drop { " :-".contains($0) }
    }
    return (reasonPhrases[status] ?? []).contains { $0.caseInsensitiveCompare(text) == .orderedSame }
  }

  /// The reason phrases of the statuses an error may carry, in English as servers send them
  /// (RFC 9110's, and the older names some still use); Foundation's own list is localized on
  /// Apple's systems.
  private static let reasonPhrases: [Int: [String]] = [
    400: ["Bad Request"], 401: ["Unauthorized"], 402: ["Payment Required"], 403: ["Forbidden"],
    404: ["Not Found"], 405: ["Method Not Allowed"], 406: ["Not Acceptable"], 408: ["Request Timeout"],
    409: ["Conflict"], 410: ["Gone"], 411: ["Length Required"], 412: ["Precondition Failed"],
    413: ["Content Too Large", "Payload Too Large", "Request Entity Too Large"],
    414: ["URI Too Long", "Request-URI Too Long"], 415: ["Unsupported Media Type"],
    416: ["Range Not Satisfiable", "Requested Range Not Satisfiable"], 417: ["Expectation Failed"],
    421: ["Misdirected Request"], 422: ["Unprocessable Content", "Unprocessable Entity"], 423: ["Locked"],
    425: ["Too Early"], 426: ["Upgrade Required"], 428: ["Precondition Required"],
    429: ["Too Many Requests"], 431: ["Request Header Fields Too Large"],
    451: ["Unavailable For Legal Reasons"], 500: ["Internal Server Error"], 501: ["Not Implemented"],
    502: ["Bad Gateway"], 503: ["Service Unavailable"], 504: ["Gateway Timeout"],
  ]

  /// The texts of an `errors` list (Rails' full messages), or its first entry's `detail`,
  /// `message` or `title` (JSON:API's, GraphQL's and Directus' errors), whose detail is the
  /// specific one.
  private static func sentence(inErrorsList value: Any?) -> String? {
    guard let list = value as? [Any] else { return nil }
    if let texts = words(list) { return texts }
    let first = list.first as? [String: Any] ?? [:]
    return ["detail", "message", "title"].lazy.compactMap { words(first[$0]) }.first
  }

  /// An excerpt of one line of text that is neither JSON nor markup: Go's `http.Error` writes its
  /// message so. A cut excerpt, a page or a trace of several lines says no sentence.
  private static func sentence(inPlainText text: String) -> String? {
    guard let first = text.first, !"{[<".contains(first), !text.hasSuffix("…"),
      !text.contains(where: \.isNewline), text.contains(where: \.isLetter)
    else { return nil }
    return text
  }

  /// The first whole `detail`, `message`, `msg` or `error_description` text in the start of a
  /// JSON body the excerpt cut short (Stripe's and Microsoft Graph's errors are longer than it).
  private static func sentence(inCutJSON text: String) -> String? {
    guard text.hasPrefix("{") else { return nil }
    let whole = NSRange(text.startIndex..., in: text)
    for expression in cutSentenceExpressions {
      guard let match = expression.firstMatch(in: text, range: whole),
        let literal = Range(match.range(at: 1), in: text),
        let sentence = strings(try? JSONDecoder().decode(String.self, from: Data(text[literal].utf8)))?.first
      else { continue }
      return sentence
    }
    return nil
  }

  /// For each key ``sentence(inCutJSON:)`` reads, in order: the key and its whole string literal.
  /// Compiled once, as compiling costs far more than matching.
  private static let cutSentenceExpressions = ["detail", "message", "msg", "error_description"].compactMap {
    try? NSRegularExpression(pattern: #""\#($0)"\s*:\s*("(?:[^"\\]|\\.)*")"#)
  }

  /// Keys whose text is about the whole form in the framework shape, the most specific first.
  private static let sentenceKeys = ["detail", "non_field_errors", "formErrors", "message", "error"]
  /// Keys whose value lists the field errors, in either form ``fields(in:)`` reads; `detail` does
  /// in FastAPI's 422, and is a sentence elsewhere. `fieldErrors` and `issues` are Zod's.
  private static let listKeys = [
    "errors", "invalid-params", "invalid_params", "detail", "violations", "fieldErrors", "issues",
  ]
  /// Keys under which envelopes list their field errors. Unlike ``listKeys``, a list of bare
  /// messages under one of them is still a field of that name, as it was before they were read.
  private static let envelopeListKeys = ["details", "fields"]
  /// Keys that name the field in an entry of an error list; the first one present wins, so
  /// Litestar's `key` names one only where no other key does (elsewhere it may be a message's).
  private static let entryNameKeys = [
    "pointer", "name", "field", "path", "param", "target", "propertyPath", "key",
  ]
  /// Keys that hold an entry's message: `defaultMessage` is Spring's, `msg` pydantic's and
  /// express-validator's, `description` Google's, `title` Symfony's (JSON:API's is a summary, so
  /// its `detail` comes first).
  private static let entryMessageKeys = [
    "detail", "reason", "message", "defaultMessage", "msg", "description", "title",
  ]

  /// Field errors given as `{"field": ["message"]}`, or as a list of entries that each name a
  /// field (see ``fieldName(of:)``) and give a message.
  private static func fields(in value: Any?) -> [String: [String]] {
    if let object = value as? [String: Any] {
      // Strapi's `details` hold the list under `errors`.
      if let list = object["errors"] as? [Any] { return fields(in: list) }
      return nestedFields(in: object)
    }
    var fields: [String: [String]] = [:]
    for case let entry as [String: Any] in value as? [Any] ?? [] {
      // Google's `details` hold typed entries; a `BadRequest` lists its fields inside.
      fields.merge(self.fields(in: entry["fieldViolations"]), uniquingKeysWith: +)
      let message = entryMessageKeys.lazy.compactMap { strings(entry[$0])?.joined(separator: " ") }.first
      guard let name = fieldName(of: entry), let message else { continue }
      fields[name, default: []].append(message)
    }
    return fields
  }

  /// The field errors in `value`, found at `path`: the messages (one, or a list) at the leaves of
  /// nested objects and of lists of objects, each named by the dotted path to it (marshmallow's
  /// nested errors: `address.city`, `items.1.name`). A request location that files the fields
  /// (webargs' `json`, `query`) is not part of their names.
  private static func nestedFields(in value: Any, path: [String] = []) -> [String: [String]] {
    let children: [(name: String, value: Any)]? =
      if let object = value as? [String: Any] {
        object.map { ($0.key, $0.value) }
      } else if let list = value as? [Any], list.contains(where: { $0 is [String: Any] }) {
        list.enumerated().map { (String($0.offset), $0.element) }
      } else {
        nil
      }
    guard let children else {
      guard !path.isEmpty, let texts = strings(value) else { return [:] }
      return [path.joined(separator: "."): texts]
    }
    var fields: [String: [String]] = [:]
    for child in children {
      let isLocation = path.isEmpty && requestLocations.contains(child.name) && child.value is [String: Any]
      let steps = isLocation ? [] : path + [child.name]
      fields.merge(nestedFields(in: child.value, path: steps), uniquingKeysWith: +)
    }
    return fields
  }

  /// The `message` of each object in `value` that holds a `code` and a `message`, both texts, by
  /// the dotted path of the keys that lead to it: PocketBase's field errors, nested as the fields
  /// are (`authToken.duration`). Nothing else under `data` is read.
  private static func codedFields(in value: Any, path: [String] = []) -> [String: [String]] {
    guard let object = value as? [String: Any] else { return [:] }
    if !path.isEmpty, object["code"] is String, let message = object["message"] as? String {
      return [path.joined(separator: "."): [message]]
    }
    var fields: [String: [String]] = [:]
    for (key, child) in object {
      fields.merge(codedFields(in: child, path: path + [key]), uniquingKeysWith: +)
    }
    return fields
  }

  /// The parts of a request under which webargs (flask-smorest, aiohttp's parser) files errors.
  private static let requestLocations: Set<String> = [
    "json", "form", "query", "querystring", "files", "headers", "cookies", "view_args", "match_info",
  ]

  /// The field an error entry is about: pydantic's `loc` or Strapi's `path` as a list, without the
  /// part of the request it names (`["body", "address", "city"]` is `address.city`); else a name
  /// or a JSON pointer (JSON:API's is under `source`), which loses its `#/`, `/data/attributes/`
  /// or `/`.
  private static func fieldName(of entry: [String: Any]) -> String? {
    if let location = entry["loc"] as? [Any] ?? entry["path"] as? [Any] {
      // Names and list indexes only: anything else in a location is not a field's name.
      let steps = location.map { step in step as? String ?? (step as? Int).map(String.init) }
      guard !steps.contains(nil) else { return nil }
      let path = steps.compactMap { $0 }.drop { ["body", "query", "path", "header", "cookie"].contains($0) }
      return path.isEmpty ? nil : path.joined(separator: ".")
    }
    let source = entry["source"] as? [String: Any] ?? [:]
    let named =
      entryNameKeys.lazy.compactMap { entry[$0] as? String }.first
      ?? ["pointer", "parameter"].lazy.compactMap { source[$0] as? String }.first
    if let named {
      for prefix in ["#/", "/data/attributes/", "/"] where named.hasPrefix(prefix) {
        return String(named.dropFirst(prefix.count))
      }
      return named
    }
    return nil
  }

  /// The texts ``strings(_:)`` finds in `value`, joined, when they are words for a person rather
  /// than a machine's code (see ``isCode(_:)``).
  private static func words(_ value: Any?) -> String? {
    strings(value).map { $0.joined(separator: " ") }.flatMap { isCode($0) ? nil : $0 }
  }

  /// Whether `text` is a machine's code, not words for a person: one ASCII token of letters,
  /// digits, `_`, `-`, `.` and `:`, with an underscore or no lower-case letter
  /// (`LOGIN_BAD_CREDENTIALS`, `invalid_token`, `EMAIL_EXISTS`). The screen then says it in its
  /// own words, as it does for a bare reason phrase; a sentence in a script without spaces is no
  /// ASCII token.
  private static func isCode(_ text: String) -> Bool {
    let isTokenCharacter = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "_-.:".contains(c)) }
    guard !text.isEmpty, text.allSatisfy(isTokenCharacter) else { return false }
    return text.contains("_") || !text.contains(where: \.isLowercase)
  }

  /// A message, or a list of them, each without the whitespace around it and without the blank
  /// ones (Spring Boot's `"message": ""`), so a screen never shows an empty sentence; `nil` when
  /// none is left.
  private static func strings(_ value: Any?) -> [String]? {
    let candidates: [Any] = if let list = value as? [Any] { list } else if let value { [value] } else { [] }
    let texts = candidates.compactMap { ($0 as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) }
    let words = texts.filter { !$0.isEmpty }
    return words.isEmpty ? nil : words
  }
}
