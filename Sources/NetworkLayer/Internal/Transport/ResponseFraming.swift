import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Whether the end of a response's body can be trusted (RFC 9112, section 6.3).
///
/// Under swift-corelibs-foundation, libcurl reads a body whose `Content-Length` is not a length as
/// best it can and reports success: it keeps the leading digits of `5abc`, takes the last of two
/// different lengths, and reads a length past `Int64` until the connection closes.
/// The body the caller gets is then cut short or runs on, and nothing says so. RFC 9112 makes
/// such framing an unrecoverable error, so the transport refuses it before it reads a byte of the
/// body. A chunked body is framed by its chunks, and its `Content-Length`, if any, is ignored, as
/// the RFC says and libcurl does.
enum ResponseFraming {
  /// Whether `response` frames its body in a way the client can rely on: chunks, no
  /// `Content-Length`, or a valid one.
  static func isTrustworthy(_ response: HTTPURLResponse) -> Bool {
    // Foundation has already read a field that is one number, and every response carries its
    // result; only a field it could not read is looked at again.
    // Its reading also takes a sign, so `+5` passes: a length every reader takes as 5.
    if response.expectedContentLength >= 0 { return true }
    guard let field = response.value(forHTTPHeaderField: "Content-Length") else { return true }
    return declaredLength(field) != nil || response.value(forHTTPHeaderField: "Transfer-Encoding") != nil
  }

  /// The length a `Content-Length` field value declares: digits that fit in `Int64`, or the same
  /// length repeated in a comma-separated list, which is how Foundation joins a duplicated field.
  /// `nil` for anything else.
  static func declaredLength(_ field: String) -> Int64? {
    var declared: Int64?
    for element in field.split(separator: ",", omittingEmptySubsequences: false) {
      // One number between optional spaces and tabs: splitting on them must leave exactly one piece.
      let pieces = element.split(whereSeparator: { $0 == " " || $0 == "\t" })
      guard pieces.count == 1, pieces[0].isDecimalDigits, let length = Int64(pieces[0]),
        declared == nil || declared == length
      else { return nil }
      declared = length
    }
    return declared
  }
}
