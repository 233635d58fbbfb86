public import Foundation

/// An HTTP response produced in process.
public struct InProcessResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields, as they should appear on the wire.
  public var headers: [String: String]
  /// The body.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// What an in-process handler does with a request: answer it, or fail the way a real network can.
public enum InProcessReply: Sendable {
  /// Send this response.
  case respond(InProcessResponse)
  /// Send the head of this response and only the first `bytesSent` bytes of its body, then
  /// drop the connection, as a server that dies mid-response would.
  case truncate(InProcessResponse, bytesSent: Int)
  /// Fail at the transport level, as a refused or reset connection would.
  case fail(URLError.Code)
}

/// Answers HTTP requests without a socket, for the embedded sample API and for test stubs.
///
/// An ``InProcessTransport`` gives a handler the requests of the clients that use it.
public protocol InProcessHandler: Sendable {
  /// Produces the reply for `request`. Runs in a task that is cancelled when the client cancels
  /// the request, so a handler that waits (to simulate latency) should wait cancellably.
  func handle(_ request: InProcessRequest) async -> InProcessReply
}
