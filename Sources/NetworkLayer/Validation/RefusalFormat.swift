public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// How a backend says why it refused a request: which statuses are refusals, and how their body
/// gives a sentence for a person and the errors of each field.
///
/// ``standard`` reads the shapes most backends use; a backend with its own shape or statuses gets a
/// format made with ``json(_:statuses:decoder:_:)`` or ``init(statuses:read:)``, handed to the
/// client. Whatever a format reads, the client tidies before it reaches
/// ``NetworkError/refused(status:message:fieldErrors:)``: each text loses the whitespace around
/// it and a blank one goes, the request's own secrets go by value, and a field with a credential
/// name keeps only sentences.
public struct RefusalFormat: Sendable {
  /// What a refusal says: a sentence for a person, if any, and the messages of each field.
  public typealias Refusal = (message: String?, fieldErrors: [String: [String]])

  /// The statuses whose bodies are read. Only client errors count, and never 401, which belongs to
  /// the auth interceptor's refresh; a refusal is final, so no retry policy repeats it.
  public let statuses: Set<Int>

  /// Reads the refusal in a refused request's body and response; `nil` when the body says nothing
  /// this format knows, and the call fails with ``NetworkError/badStatus(code:bodyExcerpt:)`` and
  /// an excerpt of it.
  public let read: @Sendable (_ body: Data, _ response: HTTPURLResponse) -> Refusal?

  /// A format whose refusals `read` reads from the responses with one of `statuses` (400, 409 and
  /// 422 unless the backend refuses with others, as Stripe's 402 does).
  public init(
    statuses: Set<Int> = [400, 409, 422],
    read: @escaping @Sendable (_ body: Data, _ response: HTTPURLResponse) -> Refusal?
  ) {
    self.statuses = statuses.filter { (400..<500).contains($0) && $0 != 401 }
    self.read = read
  }

  /// RFC 9457 problem details (`application/problem+json`: `detail` or `title`, with per-field
  /// `errors` or `invalid-params`), a list of errors that each name a field (JSON:API's, Spring's,
  /// FastAPI's `detail`, express-validator's), and the `{"title": ["This field may not be
  /// blank."]}` object of many frameworks, with `non_field_errors`, `detail`, `message` or `error`
  /// as the sentence; each also inside an `error` object (Stripe's `param`, Google's field
  /// violations).
  public static let standard = RefusalFormat { body, response in
    RefusalBody.read(body, contentType: response.value(forHTTPHeaderField: "Content-Type"))
  }

  /// A format for a backend whose refusals are JSON of its own shape, `Body`: `refusal` says what
  /// a decoded body means, and a body that does not decode as `Body` says nothing this format knows.
  public static func json<Body: Decodable & Sendable>(
    _ type: Body.Type, statuses: Set<Int> = [400, 409, 422], decoder: JSONDecoder = JSONDecoder(),
    _ refusal: @escaping @Sendable (Body) -> Refusal?
  ) -> RefusalFormat {
    RefusalFormat(statuses: statuses) { body, _ in
      (try? decoder.decode(Body.self, from: body)).flatMap(refusal)
    }
  }
}
