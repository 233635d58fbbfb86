import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Decides whether an HTTP response is one the endpoint can use.
///
/// Checks, in order: the status code against the endpoint's acceptable range (a failure carries
/// the code and a short excerpt of the body); then, when there is a body, its `Content-Type`
/// against the endpoint's `Accept` value.
struct ResponseValidator: Sendable {
  /// The most characters of an error body kept in ``NetworkError/badStatus(code:bodyExcerpt:)``.
  static let excerptLength = 200

  func validate<Response>(
    _ response: HTTPURLResponse,
    body: Data,
    for endpoint: Endpoint<Response>
  ) throws(NetworkError) {
    guard endpoint.acceptableStatusCodes.contains(response.statusCode) else {
      throw .badStatus(code: response.statusCode, bodyExcerpt: Self.excerpt(of: body))
    }
    guard !body.isEmpty else { return }
    let accepted = MediaType.ranges(inAccept: endpoint.accept)
    guard !accepted.isEmpty else { return }
    let declared = response.value(forHTTPHeaderField: "Content-Type")
    guard let received = declared.flatMap(MediaType.init),
      accepted.contains(where: { $0.admits(received) })
    else {
      throw .unacceptableContentType(received: declared, accepted: endpoint.accept)
    }
  }

  /// The start of an error body, with credential fields redacted: error bodies are echoed into
  /// `NetworkError` descriptions and logs.
  private static func excerpt(of body: Data) -> String? {
    guard !body.isEmpty else { return nil }
    let text = String(decoding: body.prefix(excerptLength * 4), as: UTF8.self)
    let trimmed = Redactor.redact(text: text).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    return trimmed.count > excerptLength ? String(trimmed.prefix(excerptLength)) + "…" : trimmed
  }
}
