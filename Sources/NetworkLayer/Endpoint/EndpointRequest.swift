public import Foundation

/// What an ``Endpoint`` sends, and the limits its answer must meet: everything about an endpoint
/// except the type its answer becomes.
///
/// Each property reads and writes through the endpoint too (`endpoint.request.deadline = .seconds(5)`),
/// and an endpoint retyped with `map` or ``Endpoint/decoding(as:decoder:)`` keeps all of them,
/// because it keeps this value whole.
public struct EndpointRequest: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// Path segments below the client's base URL. Each element is one segment and is
  /// percent-encoded as such: `"a/b"`, `"../admin"` and `".."` go out as that one segment
  /// (`a%2Fb`, `..%2Fadmin`, `%2E%2E`), never as a separator or a dot-segment. `:` and `@` go
  /// out as they are, as servers route by them (`accounts:signInWithPassword`). A server that
  /// decodes the path before routing may still act on them (nginx serves
  /// `/v1/users/%2E%2E/secret` as `/v1/secret`), so validate a segment taken from user input.
  /// No segment may be empty; a path that ends with `/` sets ``endsWithSlash``.
  public var path: [String]
  /// Query items, percent-encoded when the request is built.
  public var query: [URLQueryItem] = []
  /// Extra request headers. A name that is not a token, a value containing CR, LF or NUL, an
  /// `Accept` header, or a `Content-Type` next to a ``body`` fails the request before it is sent.
  public var headers: [String: String] = [:]
  /// The request body and its content type.
  public var body: HTTPBody? = nil
  /// The request's `Accept` header, and what the response's `Content-Type` must match.
  public var accept = "application/json"
  /// Status codes that count as success; any other fails with
  /// ``NetworkError/badStatus(code:bodyExcerpt:)`` or ``NetworkError/refused(status:message:fieldErrors:)``.
  public var acceptableStatusCodes = 200..<300
  /// Whether the request carries the user's credentials (see ``AuthInterceptor``).
  public var requiresAuthentication = false
  /// Whether sending the request twice has the same effect as sending it once: only such a
  /// request is retried after a failure that may have reached the server. Defaults to the
  /// method's own; set it to opt a `POST` in, with an `Idempotency-Key` in ``headers`` set once
  /// per operation: every attempt carries the same key, so a server that keeps keys runs it once.
  public var isIdempotent: Bool
  /// How long the whole call may take, retries included; `nil` uses the client's default. Zero
  /// or less fails with ``NetworkError/timeout`` before anything is sent; more than a year
  /// counts as a year.
  public var deadline: Duration? = nil
  /// Whether a redirect (301, 302, 303, 307 or 308) is followed. `false` delivers the redirect
  /// itself, to be read as any answer (its `Location` through ``HTTPClient/response(for:)``):
  /// a download link that points at a CDN, a one-time code in the `Location` of an app's own
  /// scheme. Accept its status in ``acceptableStatusCodes`` (`200..<400`), or it fails as a bad
  /// status. A transport of the app's own (see ``HTTPTransport``) follows or not as it does.
  public var followsRedirects = true
  /// Whether the path ends with `/`, for backends that route by directory (`/api/token/`): sent
  /// as that slash, never `%2F`. A base URL's own trailing slash is kept when the endpoint adds
  /// no segment.
  public var endsWithSlash = false
  /// A URL the API gave for this request (a next page), sent as it is in place of ``path`` and
  /// ``query``; see ``Endpoint/following(_:)``.
  public var link: URL? = nil
  /// The base URL ``path`` is appended to in place of the client's, for a server of its own: the
  /// auth server a login contract sends to (`https://tenant.auth0.com`). The session's token
  /// stays with the origin of the client's base URL: an endpoint that ``requiresAuthentication``
  /// with a base URL on another origin fails with ``NetworkError/invalidRequest(_:)`` before
  /// anything is sent. The client's interceptors adapt it as any other request.
  public var baseURL: URL? = nil
  /// The largest response body, in bytes; `nil` uses the client's `maximumResponseSize`. A
  /// larger body ends the call at once with ``NetworkError/responseTooLarge(limit:)``.
  public var maximumResponseSize: Int? = nil
  /// Values the request carries as credentials under names that do not say so (`{"rt": …}`):
  /// removed by value from every event, log line and error the client reports about the call.
  public var credentials: [String] = []
}
