public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// What carries a request to a server and its response back: the seam under the client.
///
/// ``URLSessionHTTPClient`` builds, adapts, validates, decodes and retries; a transport only
/// moves a finished request and its answer. ``URLSessionTransport`` is the real one. Another
/// transport (an in-process server for previews and tests) gets the same pipeline and the same
/// guarantees of the call: the client runs `send` in a task of its own that it cancels at the
/// deadline or when its caller cancels, without waiting for `send` to notice, and applies the
/// response size limit to what `send` returns. What only a network has (redirects, framing, the
/// corelibs workarounds) is then not exercised.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the response's body and head, whatever its status.
  ///
  /// - Throws: ``NetworkError/transport(code:)`` with the `URLError` code of a failure on the
  ///   way, or ``NetworkError/cancelled`` when the task is cancelled.
  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse)
}
