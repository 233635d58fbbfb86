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

  /// Form fields, sent as `application/x-www-form-urlencoded`, as OAuth token endpoints and
  /// HTML forms expect: `name=value` pairs joined by `&`, in the order given.
  ///
  /// Every character but the unreserved ones (letters, digits, `-._~`) is percent-encoded as
  /// UTF-8, the space as `%20` rather than `+`, so `+ & = # ? %`, spaces and non-ASCII text
  /// reach the server's form parser exactly as given. A field whose value is `nil` is sent as
  /// its name alone.
  public static func form(_ fields: [URLQueryItem]) -> HTTPBody {
    HTTPBody(contentType: "application/x-www-form-urlencoded") { () throws(NetworkError) in
      var text = ""
      for (index, field) in fields.enumerated() {
        if index > 0 { text += "&" }
        text += RequestBuilder.percentEncode(field.name)
        if let value = field.value {
          text += "="
          text += RequestBuilder.percentEncode(value)
        }
      }
      return Data(text.utf8)
    }
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
