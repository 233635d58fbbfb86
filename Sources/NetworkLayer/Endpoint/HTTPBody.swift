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
      PercentEncoding.append(fields, formEncodedTo: &text)
      return Data(text.utf8)
    }
  }

  /// Form fields and files, sent as `multipart/form-data`, as upload endpoints expect.
  ///
  /// Each part's bytes are sent as they are, between boundaries chosen at random and checked to
  /// occur in none of them. A name or file name with a quote or a line break is escaped (see
  /// ``MultipartPart``); a part's content type with CR, LF or NUL fails the request with
  /// ``NetworkError/invalidRequest(_:)`` before anything is sent.
  public static func multipart(_ parts: [MultipartPart]) -> HTTPBody {
    let boundary = multipartBoundary(avoiding: parts)
    return HTTPBody(contentType: "multipart/form-data; boundary=\(boundary)") { () throws(NetworkError) in
      let delimiter = Data("--\(boundary)\r\n".utf8)
      var body = Data()
      body.reserveCapacity(parts.reduce(0) { $0 + $1.data.count + 256 } + boundary.utf8.count + 8)
      for part in parts {
        body.append(delimiter)
        body.append(try part.header())
        body.append(part.data)
        body.append(Data("\r\n".utf8))
      }
      body.append(Data("--\(boundary)--\r\n".utf8))
      return body
    }
  }

  /// A boundary that occurs in none of `parts`' bytes, so none of them can end its part early.
  private static func multipartBoundary(avoiding parts: [MultipartPart]) -> String {
    while true {
      let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
      let boundary = "layered-\(random)"
      let bytes = Data(boundary.utf8)
      if !parts.contains(where: { $0.data.range(of: bytes) != nil }) { return boundary }
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
