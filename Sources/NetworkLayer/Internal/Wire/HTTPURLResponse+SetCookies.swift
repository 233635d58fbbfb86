import Foundation

#if canImport(FoundationNetworking)
  package import FoundationNetworking
#else
  package import Foundation
#endif

extension HTTPURLResponse {
  /// The cookies this answer sets, read by `HTTPCookie` from its header fields that are all
  /// ASCII, as every valid cookie is: on Linux, `HTTPCookie`'s date parser traps on an expiry with
  /// an accent after it. Several `Set-Cookie` lines are told apart.
  package var setCookies: [HTTPCookie] {
    let fields = allHeaderFields.reduce(into: [String: String]()) { fields, field in
      if let name = field.key as? String, let value = field.value as? String,
        value.utf8.allSatisfy({ $0 < 0x80 })
      {
        fields[name] = value
      }
    }
    return HTTPCookie.cookies(withResponseHeaderFields: fields, for: url ?? URL(fileURLWithPath: "/"))
  }
}
