package import Foundation
import LayeredSupport

#if canImport(FoundationNetworking)
  package import FoundationNetworking
#endif

extension HTTPCookie {
  /// The cookie's `Max-Age` in seconds, read by RFC 6265's rule (digits, perhaps after a minus
  /// sign; anything else is no `Max-Age`). corelibs keeps it as text and gives a cookie that has
  /// one no `expiresDate`, even beside an `Expires`.
  package var maximumAge: Double? {
    guard let text = properties?[.maximumAge].map({ "\($0)" }),
      text.drop(while: { $0 == "-" }).allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int(text)
    else { return nil }
    return Double(seconds)
  }

  /// The moment of the cookie's `Expires`. corelibs gives a cookie with a `Max-Age` no
  /// `expiresDate`, even when the `Max-Age` is no number and RFC 6265 has it ignored, so the
  /// attribute's text is read then.
  package var expiresMoment: Date? {
    expiresDate ?? (properties?[.expires] as? String).flatMap { HTTPDate.moment($0, now: Date()) }
  }
}
