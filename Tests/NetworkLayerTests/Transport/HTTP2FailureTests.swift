import Foundation
import LayeredSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How an HTTP/2 exchange that ends badly is told apart. Over HTTP/2 (libcurl speaks it to a TLS
/// server that offers it) libcurl reports a server that gave up on a request in words only, and
/// swift-corelibs-foundation passes them on as an unknown error. The messages below are libcurl's
/// own: most are what 7.88.1 wrote against a hostile HTTP/2 server on a real socket, the others
/// its sentences for other reset codes or in later versions. No test here can reach such a
/// server, since this toolchain trusts only the system's certificates, so ``StubServer``'s
/// protocol class fails the task with those words, on Foundation's own thread, as corelibs does.
@Suite("HTTP/2 failures as libcurl words them", .timeLimit(.minutes(1)))
struct HTTP2FailureTests {
  /// One libcurl failure, before or after the response head arrived.
  struct Failure: Sendable, CustomTestStringConvertible {
    var message: String
    var afterHead = false
    var expected: URLError.Code

    var testDescription: String { "\(afterHead ? "after the head" : "before any response"): \(message)" }
  }

  @Test(
    "a stream the server or its connection gave up on is a connection closed before any response, or a lost one mid-body",
    arguments: [
      Failure(
        message: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream",
        expected: .badServerResponse),
      Failure(
        message: "HTTP/2 stream 105 was not closed cleanly before end of the underlying connection",
        expected: .badServerResponse),
      Failure(
        message: "HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)",
        expected: .badServerResponse),
      Failure(
        message: "HTTP/2 stream 3 was not closed cleanly: CANCEL (err 8)", expected: .badServerResponse),
      Failure(message: "HTTP/2 stream 1 was reset", expected: .badServerResponse),
      Failure(message: "Connection died, tried 5 times before giving up", expected: .badServerResponse),
      Failure(message: "Error in the HTTP2 framing layer", expected: .badServerResponse),
      Failure(
        message: "HTTP/2 stream 1 was not closed cleanly before end of the underlying stream",
        afterHead: true,
        expected: .networkConnectionLost),
      Failure(
        message: "HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)", afterHead: true,
        expected: .networkConnectionLost),
      Failure(message: "Error in the HTTP2 framing layer", afterHead: true, expected: .networkConnectionLost),
    ])
  func abandonedStreams(failure: Failure) async {
    let server = StubServer(
      .urlSession, answer: .libcurlFailure(message: failure.message, afterHead: failure.afterHead))
    let result = await server.client().outcome(
      Endpoint<Data>(method: .post, path: ["todos"], body: .json(["title": "a"])))

    #expect(result == .failure(.transport(code: failure.expected.rawValue)))
    #expect(server.arrivals.withLock { $0 } == 1, "a POST is not sent again")
  }

  @Test(
    "a reply HTTP/2 forbids is still a response that cannot be parsed",
    arguments: [
      Failure(
        message: "HTTP/2 stream 1 was not closed cleanly: PROTOCOL_ERROR (err 1)",
        expected: .cannotParseResponse),
      Failure(
        message:
          "HTTP/2 stream 1 was closed cleanly, but before getting  all response header fields, treated as error",
        expected: .cannotParseResponse),
    ])
  func malformedReplies(failure: Failure) async {
    let server = StubServer(
      .urlSession, answer: .libcurlFailure(message: failure.message, afterHead: failure.afterHead))
    let result = await server.client(interceptors: [RetryPolicy(baseDelay: .zero)]).outcome(
      Endpoint<Data>(path: ["todos"]))

    #expect(result == .failure(.transport(code: failure.expected.rawValue)))
    #expect(server.arrivals.withLock { $0 } == 1, "a reply that cannot be read is not asked for again")
  }

  /// libcurl's bare words for its HTTP/2 error code are what it says when the connection's
  /// session ended before the stream was answered: a `GOAWAY` that refused it, or a server's
  /// graceful close racing a request (swift-nio-http2's, under Hummingbird).
  @Test(
    "a GET whose stream the server reset is sent again, as after a connection closed on HTTP/1.1",
    arguments: [
      "HTTP/2 stream 1 was not closed cleanly: INTERNAL_ERROR (err 2)", "Error in the HTTP2 framing layer",
    ])
  func abandonedGetIsRetried(message: String) async {
    let server = StubServer(.urlSession, answer: .libcurlFailure(message: message, afterHead: false))
    let result = await server.client(interceptors: [RetryPolicy(maxAttempts: 3, baseDelay: .zero)]).outcome(
      Endpoint<Data>(path: ["todos"]))

    #expect(result == .failure(.transport(code: URLError.Code.badServerResponse.rawValue)))
    #expect(server.arrivals.withLock { $0 } == 3, "every attempt the policy allows reached the server")
  }
}
