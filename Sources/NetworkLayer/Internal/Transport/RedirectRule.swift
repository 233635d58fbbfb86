import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where a redirect goes, and what the redirected request may carry.
///
/// - Only the statuses the Fetch standard calls redirects are followed: 301, 302, 303, 307 and
///   308. swift-corelibs-foundation also follows a 305 (deprecated) and a 306 (unused), sending
///   the request again without its body, to any origin; their response is the answer here, as
///   in a browser.
/// - The target is the URL the response's `Location` names, resolved against the URL it
///   answered as RFC 3986 says. swift-corelibs-foundation builds its own target from pieces of
///   the two: it drops the current path for a `Location` of only a query (`?page=2` went to
///   `/?page=2`), decodes and resolves percent-encoded dot segments (`/%2e%2e/x` went to `/x`),
///   and keeps the current scheme and host for any other scheme (`file:///etc/passwd` became
///   `GET /etc/passwd` on the API's host).
/// - A target that is not an `http` or `https` URL with a host ends the call with
///   `URLError.unsupportedURL`, before anything more is sent. A `Location` that names no URL at
///   all leaves the redirect response as the answer, as Apple's Foundation does.
/// - A redirect that leaves the request's origin carries no credential: every header
///   ``Redactor`` treats as one (`Authorization`, `Proxy-Authorization`, `Cookie`, API-key and
///   token headers) is dropped, so a server cannot bounce a request, and the user's secrets with
///   it, to a host of its choosing. Within that origin they stay, even when it is not the API's
///   (a login contract's own auth server).
/// - A 301 or 302 after a `POST`, and a 303 after anything but a `GET` or `HEAD`, goes on as a
///   `GET`, as Foundation makes it, without the body and without the headers that described it.
/// - A 307 or 308, and a 301 or 302 after a `PUT`, `PATCH` or `DELETE`, repeats the request as it
///   was: same method, same body, as the Fetch standard says. swift-corelibs-foundation keeps the
///   method but sends an empty body, which made a `PATCH` to a path a server only moved (Django's
///   trailing slash) change nothing and succeed; the transport sends the repeat itself. One that
///   leaves the origin with a body holding credentials (a login's password, a refresh token:
///   the fields ``Redactor`` treats as credentials) is not followed: its response is the answer,
///   so a server cannot bounce the user's password to a host of its choosing either.
enum RedirectRule {
  /// The most redirects one attempt follows, whatever their status; one more ends it with
  /// `URLError.httpTooManyRedirects`. The Fetch standard's limit, and the one
  /// swift-corelibs-foundation applies to the redirects it follows within a task.
  static let maximumRedirects = 20

  /// The headers that describe a request's body, which leave with it (Fetch's request-body-header
  /// names).
  private static let bodyHeaders = [
    "Content-Type", "Content-Encoding", "Content-Language", "Content-Location",
  ]

  /// The statuses that redirect.
  private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

  /// Whether a redirect with `status` repeats a request sent with `method` with its method and
  /// body, rather than going on as a `GET`.
  private static func repeatsRequest(_ status: Int, method: String?) -> Bool {
    switch status {
    case 307, 308: true
    case 301, 302: !["GET", "HEAD", "POST"].contains(method ?? "GET")
    default: false
    }
  }

  /// The request to send for a redirect answered by `response`, given the request first sent
  /// and the one Foundation proposes, and whether it repeats the first with its method and body
  /// (which the transport then sends itself); `nil` when the redirect response itself is the
  /// answer: its status is no redirect, its `Location` names no URL, or it would repeat a body
  /// holding credentials to another origin.
  ///
  /// - Throws: ``NetworkError/transport(code:)`` with `URLError.unsupportedURL` for a target
  ///   that is not an `http` or `https` URL with a host.
  static func request(
    following response: HTTPURLResponse,
    from original: URLRequest,
    proposed: URLRequest
  ) throws(NetworkError) -> (request: URLRequest, repeats: Bool)? {
    guard redirectStatuses.contains(response.statusCode), let target = Self.target(of: response) else {
      return nil
    }
    guard Origin(target).isHTTP else { throw .transport(code: URLError.unsupportedURL.rawValue) }
    let repeatsRequest = Self.repeatsRequest(response.statusCode, method: original.httpMethod)
    let staysHome = original.url.map(Origin.init) == Origin(target)
    if !staysHome, repeatsRequest, !RequestSecrets.credentialValues(inBodyOf: original).isEmpty {
      return nil
    }
    var next = proposed
    next.url = target
    if repeatsRequest {
      next.httpMethod = original.httpMethod
      if let body = original.httpBody { next.httpBody = body }
      for (name, value) in original.allHTTPHeaderFields ?? [:]
      where next.value(forHTTPHeaderField: name) == nil {
        next.setValue(value, forHTTPHeaderField: name)
      }
    } else if next.httpBody == nil, next.httpMethod != original.httpMethod {
      // Foundation turned the request into a GET without its body, but left the headers that
      // described that body, as the Fetch standard says to remove them.
      for name in Self.bodyHeaders { next.setValue(nil, forHTTPHeaderField: name) }
    }
    if !staysHome {
      for name in (next.allHTTPHeaderFields ?? [:]).keys where Redactor.isCredentialHeader(name) {
        next.setValue(nil, forHTTPHeaderField: name)
      }
    }
    return (next, repeatsRequest)
  }

  /// The absolute URL `response`'s `Location` names, resolved against the URL of `response`.
  static func target(of response: HTTPURLResponse) -> URL? {
    guard let location = response.value(forHTTPHeaderField: "Location") else { return nil }
    let trimmed = location.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: response.url)?.absoluteURL
    else { return nil }
    // Schemes are case-insensitive, but swift-corelibs-foundation loads only a lower-case one:
    // a task for `HTTP://host/` fails as an unsupported URL.
    guard let scheme = url.scheme, scheme != scheme.lowercased() else { return url }
    return URL(string: scheme.lowercased() + url.absoluteString.dropFirst(scheme.count))
  }
}
