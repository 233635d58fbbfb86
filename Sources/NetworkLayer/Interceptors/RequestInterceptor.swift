public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// One link of the client's interceptor chain: it may change a request before each attempt and
/// decide what happens after a failed one.
///
/// The client calls every interceptor's ``adapt(_:context:)``, in order, before every attempt,
/// so a bearer token is always current. After a failed attempt it asks them, in order, for a
/// ``RetryDecision``; the first that answers other than ``RetryDecision/doNotRetry`` decides.
public protocol RequestInterceptor: Sendable {
  /// Returns the request to send. Throwing fails the call with that error, without sending.
  func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest

  /// Decides what to do after `failure`.
  func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision
}

extension RequestInterceptor {
  /// Leaves the request as it is, for interceptors that only decide retries.
  public func adapt(_ request: URLRequest, context: RequestContext) async throws(NetworkError) -> URLRequest {
    request
  }

  /// Leaves the decision to the next interceptor, for interceptors that only adapt requests.
  public func retry(after failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
    .doNotRetry
  }
}

/// What an interceptor decides after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
  /// Let the next interceptor decide; if none does, the call fails with the attempt's error.
  case doNotRetry
  /// Send the request again at once.
  case retryNow
  /// Send the request again after waiting `delay` on the client's clock. A delay that would
  /// reach the call's deadline is not waited for: the call fails at once with the attempt's error.
  case retry(after: Duration)
  /// Stop and fail the call with this error instead of the attempt's own.
  case fail(NetworkError)
}

/// What an interceptor knows about the call it is working on.
public struct RequestContext: Sendable {
  /// The API's base URL: the one origin that may receive credentials.
  public let baseURL: URL
  /// The endpoint's method.
  public let method: HTTPMethod
  /// The endpoint's path segments.
  public let path: [String]
  /// Whether the endpoint carries credentials.
  public let requiresAuthentication: Bool
  /// Whether the endpoint may be sent more than once.
  public let isIdempotent: Bool
  /// The number of the attempt being adapted or that just failed; the first attempt is 1.
  public let attempt: Int
  /// The errors of the attempts that failed so far, oldest first, including the current one
  /// when deciding a retry.
  public let failures: [NetworkError]

  /// Creates a context; the client does this for every attempt.
  public init(
    baseURL: URL,
    method: HTTPMethod,
    path: [String],
    requiresAuthentication: Bool,
    isIdempotent: Bool,
    attempt: Int,
    failures: [NetworkError]
  ) {
    self.baseURL = baseURL
    self.method = method
    self.path = path
    self.requiresAuthentication = requiresAuthentication
    self.isIdempotent = isIdempotent
    self.attempt = attempt
    self.failures = failures
  }
}

/// One failed attempt: its error, the request as sent, and the response if there was one.
public struct AttemptFailure: Sendable {
  /// Why the attempt failed.
  public let error: NetworkError
  /// The request as it was sent, after every interceptor adapted it.
  public let request: URLRequest
  /// The HTTP response, when the server answered.
  public let response: HTTPURLResponse?

  /// Creates a failure record.
  public init(error: NetworkError, request: URLRequest, response: HTTPURLResponse?) {
    self.error = error
    self.request = request
    self.response = response
  }

  /// The response's `Retry-After` header, if any.
  public var retryAfter: String? {
    response?.value(forHTTPHeaderField: "Retry-After")
  }
}
