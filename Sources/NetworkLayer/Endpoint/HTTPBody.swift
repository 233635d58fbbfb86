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

  /// Form fields, sent as `application/x-www-form-urlencoded` in the order given, as OAuth token
  /// endpoints and HTML forms expect. Every field reaches the server's form parser exactly as
  /// given (`+ & = # ? %`, spaces, non-ASCII text); a field whose value is `nil` is its name alone.
  public static func form(_ fields: [URLQueryItem]) -> HTTPBody {
    HTTPBody(contentType: "application/x-www-form-urlencoded") { () throws(NetworkError) in
      var text = ""
      PercentEncoding.append(fields, formEncodedTo: &text)
      return Data(text.utf8)
    }
  }

  /// Form fields and files, sent as `multipart/form-data`, as upload endpoints expect. Each
  /// part's bytes go as they are, between boundaries that occur in none of them; a name cannot
  /// forge a header, and a content type with CR, LF or NUL fails before anything is sent.
  public static func multipart(_ parts: [MultipartPart]) -> HTTPBody {
    let boundary = MultipartPart.boundary(avoiding: parts)
    return HTTPBody(contentType: "multipart/form-data; boundary=\(boundary)") { () throws(NetworkError) in
      try MultipartPart.body(of: parts, boundary: boundary)
    }
  }

  /// JSON, sent as `application/json` unless ``contentType`` is set after (JSON:API's, a merge patch's).
  /// A value that cannot be encoded fails with ``NetworkError/invalidRequest(_:)`` before anything is sent.
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
