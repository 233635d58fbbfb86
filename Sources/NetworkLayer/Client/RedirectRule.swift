import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What a request may carry when the server redirects it.
///
/// - A redirect that leaves the request's origin (or the API's) carries no credential: every
///   header ``Redactor`` treats as one (`Authorization`, `Proxy-Authorization`, `Cookie`,
///   API-key and token headers) is dropped, so a server cannot bounce a request, and the user's
///   secrets with it, to a host of its choosing.
/// - A 307 or 308 repeats the request as it was: same method, same body. swift-corelibs-foundation
///   keeps the method but sends an empty body, so the transport sends the repeat itself.
struct RedirectRule: Sendable {
  let credentialOrigin: Origin

  /// The most redirects the transport follows itself for one request.
  static let maximumRepeats = 16

  /// Whether a redirect with `status` repeats the request with its method and body.
  static func repeatsRequest(_ status: Int) -> Bool {
    status == 307 || status == 308
  }

  /// The request to send for a redirect answered by `response`, given the request first sent
  /// and the one Foundation proposes.
  func request(
    following response: HTTPURLResponse,
    from original: URLRequest,
    proposed: URLRequest
  ) -> URLRequest {
    var next = proposed
    if Self.repeatsRequest(response.statusCode) {
      next.httpMethod = original.httpMethod
      if let body = original.httpBody { next.httpBody = body }
      for (name, value) in original.allHTTPHeaderFields ?? [:]
      where next.value(forHTTPHeaderField: name) == nil {
        next.setValue(value, forHTTPHeaderField: name)
      }
    }
    let staysHome =
      credentialOrigin.contains(next.url) && original.url.map(Origin.init) == next.url.map(Origin.init)
    if !staysHome {
      for name in (next.allHTTPHeaderFields ?? [:]).keys where Redactor.isCredentialHeader(name) {
        next.setValue(nil, forHTTPHeaderField: name)
      }
    }
    return next
  }
}
