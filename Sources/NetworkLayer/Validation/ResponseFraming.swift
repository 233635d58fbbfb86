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
    // result; only a field it could not read costs a look-up (several hundred instructions).
    // Its reading also takes a sign, so `+5` passes: a length every reader takes as 5.
    if response.expectedContentLength >= 0 { return true }
    guard let field = response.value(forHTTPHeaderField: "Content-Length") else { return true }
    return declaredLength(field) != nil || response.value(forHTTPHeaderField: "Transfer-Encoding") != nil
  }

  /// The length a `Content-Length` field value declares: digits that fit in `Int64`, or the same
  /// length repeated in a comma-separated list, which is how Foundation joins a duplicated field.
  /// `nil` for anything else.
  static func declaredLength(_ field: String) -> Int64? {
    field.withUTF8Bytes { bytes -> Int64? in
      var declared: Int64?
      var index = 0
      func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
      }
      while true {
        skipWhitespace()
        let start = index
        var length: Int64 = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
          let (shifted, overflowed) = length.multipliedReportingOverflow(by: 10)
          let (sum, carried) = shifted.addingReportingOverflow(Int64(bytes[index] &- 0x30))
          guard !overflowed, !carried else { return nil }
          length = sum
          index += 1
        }
        guard index > start, declared == nil || declared == length else { return nil }
        declared = length
        skipWhitespace()
        guard index < bytes.count else { return declared }
        guard bytes[index] == 0x2C else { return nil }
        index += 1
      }
    }
  }
}
