import Foundation
import LayeredSupport
import NetworkLayer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Endpoint where Response == IssuedTokens {
  /// This login or refresh, an absolute expiry in its answer read by the server's clock: the
  /// time from the answer's `Date` header to the expiry, counted from the answer's arrival. A
  /// device clock hours off the server's would otherwise find every token expired on arrival,
  /// renew it before each request and soon end the session. Without a readable `Date` the
  /// expiry is kept as it is.
  func readingExpiryByServerClock() -> Self {
    map { issued, response in
      guard case .at(let expiry) = issued.expiry,
        let field = response.value(forHTTPHeaderField: "Date"),
        let serverNow = HTTPDate.moment(field, now: Date())
      else { return issued }
      var issued = issued
      issued.expiry = .after(seconds: expiry.timeIntervalSince(serverNow))
      return issued
    }
  }
}
