extension URLSessionHTTPClient {
  /// The default response body limit, 10 MiB: generous for JSON, small enough that a misbehaving
  /// server cannot exhaust the app's memory. An endpoint that downloads more sets its own.
  public static let defaultMaximumResponseSize = 10 * 1024 * 1024
}
