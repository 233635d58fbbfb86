/// A response type that has a value for "the server sent no body".
///
/// An endpoint whose `Response` conforms accepts an empty body on 204 and 205 answers and on
/// `HEAD` requests; any other response type treats an empty body as ``NetworkError/noData``.
public protocol EmptyResponse {
  /// The value that stands for an empty body.
  static var emptyValue: Self { get }
}

/// The response of an endpoint that returns nothing worth decoding, such as `DELETE /todos/7`.
public struct NoContent: Decodable, EmptyResponse, Hashable, Sendable {
  /// The one value: an endpoint returning ``NoContent`` always succeeds with it on an accepted
  /// status, whatever body came with it.
  public static let emptyValue = NoContent()

  /// Creates the empty value.
  public init() {}

  /// Accepts any body: an endpoint that expects no content ignores whatever it gets.
  public init(from decoder: any Decoder) throws {}
}

/// An endpoint whose response is optional succeeds with `nil` on an empty body where one is
/// acceptable (204, 205, `HEAD`, an accepted 304), instead of failing with ``NetworkError/noData``.
extension Optional: EmptyResponse {
  /// An empty body decodes to `nil`.
  public static var emptyValue: Wrapped? { nil }
}
