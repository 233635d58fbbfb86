import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How an endpoint decides whether an HTTP response is one it can use, then reads its value.
///
/// Checks, in order: the status against the endpoint's acceptable range (a failure carries the
/// code and a short, scrubbed excerpt of the body, or, for a refusal whose body says why in the
/// backend's ``RefusalFormat``, the server's sentence and field errors); then, when there is a body
/// the endpoint expects, its `Content-Type` against the endpoint's `Accept` (`*/*` accepts any).
/// Every error ``value(in:response:request:refusals:)`` throws has been scrubbed of the request's
/// secrets (see ``RequestSecrets``), because a server may echo the request.
extension Endpoint {
  /// The most characters of an error body kept in ``NetworkError/badStatus(code:bodyExcerpt:)``.
  private static var excerptLength: Int { 200 }

  /// The endpoint's value in `body`, once `response` is validated.
  func value(
    in body: Data, response: HTTPURLResponse, request: URLRequest, refusals: RefusalFormat
  ) throws(NetworkError) -> Response {
    if let readResponse {
      return try readResponse(body, response, request, self.request.credentials, refusals)
    }
    do throws(NetworkError) {
      try validate(response, body: body, request: request, refusals: refusals)
      return try decodedValue(of: body, response: response)
    } catch {
      throw RequestSecrets(request: request, credentials: self.request.credentials).scrub(error)
    }
  }

  private func decodedValue(of body: Data, response: HTTPURLResponse) throws(NetworkError) -> Response {
    // An endpoint that expects no content ignores whatever body it gets.
    guard body.isEmpty || !expectsContent else { return try decode(body) }
    let emptyIsNormal =
      !expectsContent || emptyBodyIsValue || [204, 205, 304].contains(response.statusCode)
      || self.request.method == .head
    guard emptyIsNormal, let value = emptyResponseValue else { throw .noData }
    return value
  }

  private func validate(
    _ response: HTTPURLResponse, body: Data, request: URLRequest, refusals: RefusalFormat
  ) throws(NetworkError) {
    let expected = self.request
    guard expected.acceptableStatusCodes.contains(response.statusCode) else {
      // The request's own secrets leave a refusal's texts with every other error's, in `value`.
      if refusals.statuses.contains(response.statusCode), let read = refusals.read(body, response) {
        let refusal = RefusalBody.tidied(read)
        throw .refused(
          status: response.statusCode, message: refusal.message, fieldErrors: refusal.fieldErrors)
      }
      let secrets = RequestSecrets(request: request, credentials: expected.credentials)
      throw .badStatus(code: response.statusCode, bodyExcerpt: Self.excerpt(of: body, secrets: secrets))
    }
    guard !body.isEmpty, expectsContent else { return }
    let declared = response.value(forHTTPHeaderField: "Content-Type")
    // Tuning: the type asked for, declared exactly, needs no parsing (see the performance article).
    if let declared, MediaType.declares(declared, exactly: expected.accept) { return }
    let accepted = MediaType.ranges(inAccept: expected.accept)
    // `*/*` takes anything, also a body that declares no type at all.
    guard !accepted.isEmpty, !accepted.contains(where: { $0.type == "*" }) else { return }
    guard let received = declared.flatMap(MediaType.effective(inContentType:)),
      accepted.contains(where: { $0.admits(received) })
    else {
      throw .unacceptableContentType(received: declared, accepted: expected.accept)
    }
  }

  /// The start of an error body, with credential fields and the request's own secrets removed:
  /// error bodies are echoed into `NetworkError` descriptions and logs. Secrets are removed
  /// before the excerpt is cut, so a cut cannot leave half of one behind.
  private static func excerpt(of body: Data, secrets: RequestSecrets) -> String? {
    guard !body.isEmpty else { return nil }
    let kept = body.prefix(excerptLength * 4)
    var text = String(decoding: kept, as: UTF8.self)
    if kept.count < body.count { text = secrets.scrub(cutText: text) }
    let redacted = secrets.scrub(Redactor.redact(text: text, secrets: secrets))
    let trimmed = redacted.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    return trimmed.count > excerptLength ? String(trimmed.prefix(excerptLength)) + "…" : trimmed
  }
}
