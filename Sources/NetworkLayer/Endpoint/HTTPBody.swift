public import Foundation

/// A request body: bytes and the media type that describes them.
public struct HTTPBody: Sendable {
  /// The `Content-Type` header value sent with the body.
  public var contentType: String
  /// Produces the bytes; called once per attempt when the request is built.
  let encode: @Sendable () throws(NetworkError) -> Data

  /// Raw bytes of the given media type.
  public static func data(_ data: Data, contentType: String) -> HTTPBody {
    HTTPBody(contentType: contentType) { () throws(NetworkError) in data }
  }

  /// A JSON-encoded value, sent as `application/json`. A value that cannot be encoded fails the
  /// request with ``NetworkError/invalidRequest(_:)`` before anything is sent.
  public static func json<Value: Encodable & Sendable>(
    _ value: Value,
    encoder: JSONEncoder = JSONEncoder()
  ) -> HTTPBody {
    HTTPBody(contentType: "application/json") { () throws(NetworkError) in
      do {
        return try encoder.encode(value)
      } catch {
        throw .invalidRequest("the body could not be encoded as JSON: \(error)")
      }
    }
  }
}
