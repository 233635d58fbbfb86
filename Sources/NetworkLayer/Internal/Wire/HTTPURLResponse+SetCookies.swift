import Foundation

#if canImport(FoundationNetworking)
  package import FoundationNetworking
#else
  package import Foundation
#endif

extension HTTPURLResponse {
  /// The cookies this answer sets, each `Set-Cookie` line read by `HTTPCookie` only if it is all
  /// ASCII, as every valid cookie is: on Linux, `HTTPCookie`'s date parser traps on an expiry
  /// with an accent after it. A line that is not is dropped alone, the others of the answer read.
  package var setCookies: [HTTPCookie] {
    let url = url ?? URL(fileURLWithPath: "/")
    let lines = Self.cookieLines(value(forHTTPHeaderField: "Set-Cookie") ?? "")
    return lines.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.flatMap { line in
      HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": line], for: url)
    }
  }

  /// The lines of a `Set-Cookie` field that corelibs joined with commas, told apart where a comma
  /// is followed by a cookie's name and `=`: the comma inside an `Expires` date is followed by a
  /// day and a month.
  private static func cookieLines(_ field: String) -> [String] {
    var lines: [String] = []
    for piece in field.split(separator: ",", omittingEmptySubsequences: false) {
      let start = piece.drop { $0 == " " }
      let name = start.prefix { $0 != "=" }
      if lines.isEmpty || (name.count < start.count && HeaderSyntax.isToken(String(name))) {
        lines.append(String(start))
      } else {
        lines[lines.count - 1] += "," + piece
      }
    }
    return lines
  }
}
