extension MediaType {
  /// Whether the `Content-Type` value `declared` is exactly `accept`, alone or followed by
  /// parameters (`application/json; charset=utf-8` for `application/json`), where `accept` is one
  /// media type without wildcards or parameters: such a type admits itself. Anything else (another
  /// spelling, a list, a range) is left to the parser, which decides the same cases alike.
  static func declares(_ declared: String, exactly accept: String) -> Bool {
    declared.withUTF8Bytes { declared in
      accept.withUTF8Bytes { accept in
        guard declared.starts(with: accept),
          !accept.contains(where: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: ";")
          })
        else { return false }
        let parameters = declared[accept.count...]
        guard let separator = parameters.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") })
        else { return true }
        return separator == UInt8(ascii: ";") && !parameters.contains(UInt8(ascii: ","))
      }
    }
  }
}
