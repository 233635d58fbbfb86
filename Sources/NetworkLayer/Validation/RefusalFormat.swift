public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// How a backend says why it refused a request: how the body of a 400, 409 or 422 gives a sentence
/// for a person and the errors of each field, for ``NetworkError/refused(status:message:fieldErrors:)``.
///
/// ``standard`` reads the shapes most backends use. A backend with a shape of its own gets a
/// format made with ``init(read:)``, handed to the client. Whatever a format reads, the client
/// scrubs before it reaches an error: the request's own secrets go by value, and a field with a
/// credential name keeps only messages that read as sentences.
public struct RefusalFormat: Sendable {
  /// What a refusal says: a sentence for a person, if any, and the messages of each field.
  public typealias Refusal = (message: String?, fieldErrors: [String: [String]])

  /// Reads the refusal in a refused request's body and response; `nil` when the body says nothing
  /// this format knows, and the call fails with ``NetworkError/badStatus(code:bodyExcerpt:)`` and
  /// an excerpt of it.
  public let read: @Sendable (_ body: Data, _ response: HTTPURLResponse) -> Refusal?

  /// A format whose refusals `read` reads.
  public init(read: @escaping @Sendable (_ body: Data, _ response: HTTPURLResponse) -> Refusal?) {
    self.read = read
  }

  /// RFC 9457 problem details (`application/problem+json`: `detail` or `title`, with per-field
  /// `errors` or `invalid-params`), and the `{"title": ["This field may not be blank."]}` object of
  /// many frameworks, with `non_field_errors`, `detail`, `message` or `error` as the sentence.
  public static let standard = RefusalFormat { body, response in
    RefusalBody.read(body, contentType: response.value(forHTTPHeaderField: "Content-Type"))
  }
}
