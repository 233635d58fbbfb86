import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// Sets the header field `name` to `value`, or removes it when `value` is `nil`, replacing a
  /// field of the same name in any letter case: what `setValue(_:forHTTPHeaderField:)` does for
  /// a name already written as it would store it ("Accept", "Authorization", "Content-Type").
  ///
  /// On swift-corelibs-foundation `setValue(_:forHTTPHeaderField:)` title-cases the name and
  /// compares it with each field through `NSString`, which costs more than the rest of building a
  /// request (see the performance article). This edits the fields directly.
  mutating func setCanonicalHeaderField(_ name: String, to value: String?) {
    var fields = allHTTPHeaderFields ?? [:]
    for key in fields.keys.filter({ HeaderSyntax.sameName($0, name) }) {
      fields[key] = nil
    }
    fields[name] = value
    allHTTPHeaderFields = fields
  }
}
