public import Foundation

/// One part of a `multipart/form-data` body (see ``HTTPBody/multipart(_:)``): a form field, or a
/// file.
public struct MultipartPart: Sendable, Hashable {
  /// The field's name.
  public var name: String
  /// The file's name, for a file; `nil` for a plain field.
  public var filename: String?
  /// The part's media type, or `nil` for none (a plain field is text).
  public var contentType: String?
  /// The part's bytes, sent as they are.
  public var data: Data

  /// A part with exactly these fields; ``field(_:_:)`` and ``file(_:filename:contentType:data:)``
  /// cover the common cases.
  public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
    self.name = name
    self.filename = filename
    self.contentType = contentType
    self.data = data
  }

  /// A text field, sent as UTF-8.
  public static func field(_ name: String, _ value: String) -> MultipartPart {
    MultipartPart(name: name, data: Data(value.utf8))
  }

  /// A file: its bytes, its name and its media type.
  public static func file(
    _ name: String, filename: String, contentType: String = "application/octet-stream", data: Data
  ) -> MultipartPart {
    MultipartPart(name: name, filename: filename, contentType: contentType, data: data)
  }

  /// The part's header fields, ending with the blank line before its bytes.
  ///
  /// The name and the file name are quoted strings in which, as HTML's form submission writes
  /// them, `"` becomes `%22` and CR and LF become `%0D` and `%0A` (and NUL `%00`): a quote or a
  /// line break taken from user input (a file's name) can neither end the string nor start a
  /// forged field.
  func header() throws(NetworkError) -> Data {
    var text = "Content-Disposition: form-data; name=\"\(Self.escaped(name))\""
    if let filename { text += "; filename=\"\(Self.escaped(filename))\"" }
    text += "\r\n"
    if let contentType {
      guard HeaderSyntax.isSafeValue(contentType) else {
        throw .invalidRequest(
          "the content type of part \"\(Self.escaped(name))\" contains a line break or NUL")
      }
      text += "Content-Type: \(contentType)\r\n"
    }
    text += "\r\n"
    return Data(text.utf8)
  }

  private static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
    else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "%22"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      case "\0": result += "%00"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// A boundary that occurs in none of `parts`' bytes, so none of them can end its part early.
  static func boundary(avoiding parts: [MultipartPart]) -> String {
    while true {
      let random = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
      let boundary = "layered-\(random)"
      let bytes = Data(boundary.utf8)
      if !parts.contains(where: { $0.data.range(of: bytes) != nil }) { return boundary }
    }
  }

  /// The body of `parts` between `boundary` delimiters.
  static func body(of parts: [MultipartPart], boundary: String) throws(NetworkError) -> Data {
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
