public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// What carries a request to a server and its response back: the seam under the client.
///
/// ``URLSessionHTTPClient`` builds, adapts, validates, decodes and retries; a transport only
/// moves a finished request and its answer. ``URLSessionTransport`` is the real one. Another (an
/// in-process server for previews and tests) gets the same pipeline, deadline, cancellation and
/// size limit; what only a network has (redirects, framing, the corelibs workarounds) it skips.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response's body and head, whatever its status; throws
  /// ``NetworkError/transport(code:)`` for a failure on the way.
  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse)
}
