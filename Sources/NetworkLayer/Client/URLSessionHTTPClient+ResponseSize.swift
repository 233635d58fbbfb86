extension URLSessionHTTPClient {
  /// The default response body limit: 10 MiB. Generous for JSON (a page of a typical API is a
  /// few kilobytes to a few hundred), small enough that a misbehaving server cannot exhaust the
  /// app's memory. Endpoints that download more set ``EndpointRequest/maximumResponseSize``.
  public static let defaultMaximumResponseSize = 10 * 1024 * 1024
}
