import Foundation

/// Reads what a server said when it refused a request, in the shapes most backends use (the
/// parser behind ``RefusalFormat/standard``): RFC 9457 problem details (`application/problem+json`:
/// `detail` or `title`, and per-field `errors` or `invalid-params`), JSON:API's `errors` list
/// whose `source` points at each field, and the
/// `{"title": ["This field may not be blank."]}` object of many frameworks, each field with a list
/// of messages, and `non_field_errors` or `detail` as the sentence for the whole form. Any other
/// body stays a bad status with its excerpt.
///
/// Whatever any format reads goes through ``redactingCredentialFields(_:)``: a field whose name is
/// a credential name (see ``Redactor``) keeps only messages that read as sentences, since anything
/// else under it could be an echoed secret.
enum RefusalBody {
  /// The sentence and the field errors in `body`; `nil` when the body is not a JSON object that
  /// says anything.
  static func read(_ body: Data, contentType: String?) -> RefusalFormat.Refusal? {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
    let isProblem = contentType.flatMap(MediaType.effective(inContentType:))?.subtype == "problem+json"
    var fieldErrors: [String: [String]] = [:]
    for key in listKeys {
      fieldErrors.merge(fields(in: object[key]), uniquingKeysWith: +)
    }
    if !isProblem {
      for (key, value) in object where !sentenceKeys.contains(key) && !listKeys.contains(key) {
        if let messages = value as? [Any], let texts = strings(messages) {
          fieldErrors[key, default: []] += texts
        }
      }
    }
    let keys = isProblem ? ["detail", "title"] : sentenceKeys
    let sentence = keys.lazy.compactMap { strings(object[$0])?.joined(separator: " ") }.first
    guard isProblem || !fieldErrors.isEmpty else { return nil }
    return (sentence, fieldErrors)
  }

  /// `refusal` with the messages under a credential name that do not read as sentences replaced.
  /// The request's own secrets are scrubbed from every text afterwards, as from any error's.
  static func redactingCredentialFields(_ refusal: RefusalFormat.Refusal) -> RefusalFormat.Refusal {
    var fieldErrors = refusal.fieldErrors
    for (field, messages) in refusal.fieldErrors where Redactor.isCredentialName(field) {
      fieldErrors[field] = messages.map { $0.contains(" ") ? $0 : Redactor.placeholder }
    }
    return (refusal.message, fieldErrors)
  }

  /// The `detail`, `message`, `error_description`, `error` or `title` of a JSON error body's
  /// excerpt: any error body, not only a refusal's, so `title` here is a sentence rather than a
  /// field. OAuth's `error` is a code (`invalid_grant`), so its `error_description` comes first.
  static func sentence(inExcerpt excerpt: String) -> String? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(excerpt.utf8)) as? [String: Any] else {
      return nil
    }
    let keys = ["detail", "message", "error_description", "error", "title"]
    return keys.lazy.compactMap { object[$0] as? String }.first
  }

  /// Keys whose text is about the whole form in the framework shape, the most specific first.
  private static let sentenceKeys = ["detail", "non_field_errors", "message", "error"]
  /// Keys whose value lists the field errors, in either form ``fields(in:)`` reads.
  private static let listKeys = ["errors", "invalid-params", "invalid_params"]

  /// Field errors given as `{"field": ["message"]}`, or as a list of `{"pointer" | "name" |
  /// "field": …, "detail" | "reason" | "message" | "defaultMessage": …}` (the last is Spring's),
  /// or of JSON:API's `{"source": {"pointer":
  /// "/data/attributes/title"}, "detail": …}` (a JSON pointer loses its `#/`, `/` or
  /// `/data/attributes/`).
  private static func fields(in value: Any?) -> [String: [String]] {
    if let object = value as? [String: Any] {
      return object.compactMapValues(strings)
    }
    var fields: [String: [String]] = [:]
    for case let entry as [String: Any] in value as? [Any] ?? [] {
      let source = entry["source"] as? [String: Any] ?? [:]
      let name =
        ["pointer", "name", "field"].lazy.compactMap { entry[$0] as? String }.first
        ?? ["pointer", "parameter"].lazy.compactMap { source[$0] as? String }.first
      let message = ["detail", "reason", "message", "defaultMessage"].lazy.compactMap { entry[$0] as? String }
        .first
      guard let name, let message else { continue }
      fields[fieldName(inPointer: name), default: []].append(message)
    }
    return fields
  }

  /// The field a JSON pointer (or a plain name) points at.
  private static func fieldName(inPointer pointer: String) -> String {
    for prefix in ["#/", "/data/attributes/", "/"] where pointer.hasPrefix(prefix) {
      return String(pointer.dropFirst(prefix.count))
    }
    return pointer
  }

  /// A message, or a list of them.
  private static func strings(_ value: Any?) -> [String]? {
    if let text = value as? String { return [text] }
    let texts = (value as? [Any])?.compactMap { $0 as? String }
    return texts?.isEmpty == false ? texts : nil
  }
}
