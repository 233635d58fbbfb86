import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The ``NetworkError`` a failed task ends in, where swift-corelibs-foundation's code for the
/// failure is missing or misleading.
///
/// swift-corelibs-foundation gives a `URLError` code only to the libcurl errors it knows; every
/// other one reaches the delegate as `unknown` (−1), whatever the server did. The failures a
/// server causes that way are told apart here, by what the transfer saw and, where nothing else
/// tells, by the message libcurl wrote, the only trace of its own error code:
/// - a body cut short, of its `Content-Length` or of its last chunk, when the connection closes,
///   is `networkConnectionLost`, as Apple's Foundation reports it and as a retry policy retries;
/// - an HTTP/2 stream the server gave up on (its connection closed under it, its session ended
///   with it unanswered, or the server reset it for a reason that is no fault of the reply) is
///   `badServerResponse` before any response, as this toolchain reports an HTTP/1.1 connection
///   closed then, and `networkConnectionLost` after the head;
/// - a body whose declared content coding cannot be undone (a gzip body that is not gzip, a coding
///   nobody knows) is `cannotDecodeContentData`;
/// - a TLS failure before any response is the code Apple's Foundation gives it: a certificate out
///   of date (`serverCertificateHasBadDate`, `serverCertificateNotYetValid`), one not trusted
///   (`serverCertificateUntrusted`), or a failed handshake (`secureConnectionFailed`);
/// - any other failure of a request that went to an http(s) host is a reply that cannot be
///   parsed (`cannotParseResponse`): a header line without a colon, a chunk size that is not
///   hexadecimal. Only what a server sent makes libcurl fail without a code otherwise: the
///   transport sends bodies from memory, so no failure to read or rewind one can occur.
enum TransportFailure {
  /// The failure of a task for `url` that ended with `error`, having received the response head
  /// `head` (if it got that far) and `received` bytes of its body.
  static func reason(
    for error: any Error, url: URL?, head: HTTPURLResponse?, received: Int
  ) -> NetworkError {
    if error is CancellationError { return .cancelled }
    guard let urlError = error as? URLError else { return .transport(code: URLError.unknown.rawValue) }
    switch urlError.code {
    case .cancelled:
      return .cancelled
    case .unknown:
      return .transport(
        code: uncodedReason(urlError, url: url, head: head, received: received).rawValue)
    // libcurl reports a reply it cannot read as HTTP (a status line of `000` or `1000`, an HTTP/0.9
    // body, HTTP/2 framing) as an unsupported protocol, which swift-corelibs-foundation passes on
    // as an unsupported URL. For an http(s) URL with a host, which the transport sends and never
    // leaves for another scheme, it is a response that cannot be parsed.
    case .unsupportedURL where isSendable(url):
      return .transport(code: URLError.cannotParseResponse.rawValue)
    default:
      return .transport(code: urlError.code.rawValue)
    }
  }

  private static func uncodedReason(
    _ error: URLError, url: URL?, head: HTTPURLResponse?, received: Int
  ) -> URLError.Code {
    // A body shorter than its declared length is cut short whatever libcurl says. A chunked body
    // declares none: libcurl's "transfer closed with outstanding read data remaining" is all
    // there is to tell its end was cut off (its words for both cases have begun so for 20 years).
    let message = libcurlMessage(of: error)
    if isCutShort(head, received: received) || message.hasPrefix("transfer closed with") {
      return .networkConnectionLost
    }
    if isAbandoned(message) { return head == nil ? .badServerResponse : .networkConnectionLost }
    guard isSendable(url) else { return .unknown }
    if head == nil, let failure = secureConnectionFailure(message) { return failure }
    if declaresContentCoding(head) || message.localizedCaseInsensitiveContains("content encoding") {
      return .cannotDecodeContentData
    }
    return .cannotParseResponse
  }

  /// Whether libcurl's message says the request was given up on rather than answered badly: an
  /// HTTP/2 stream whose connection ended under it, or that the server reset without an error,
  /// with an error of its own (`INTERNAL_ERROR`, `CANCEL`), or to refuse it (`REFUSED_STREAM`,
  /// `ENHANCE_YOUR_CALM`); a connection whose HTTP/2 session ended (a `GOAWAY`) with the stream
  /// unanswered, which libcurl words only by its error code's name; or connections that kept
  /// dying however often libcurl reconnected. A reset for a malformed reply (`PROTOCOL_ERROR`, …)
  /// is not. libcurl 7.x and 8.x word these so.
  private static func isAbandoned(_ message: String) -> Bool {
    if message.hasPrefix("Connection died, tried") || message == "Error in the HTTP2 framing layer" {
      return true
    }
    guard message.hasPrefix("HTTP/2 stream ") else { return false }
    if message.contains("was not closed cleanly before end of the underlying")
      || message.hasSuffix(" was reset")
    {
      return true
    }
    let reasons = ["INTERNAL_ERROR", "CANCEL", "REFUSED_STREAM", "ENHANCE_YOUR_CALM"]
    return message.contains("was not closed cleanly:") && reasons.contains { message.contains(": \($0) (") }
  }

  /// The code Foundation on Apple's systems gives a TLS failure that libcurl named before any
  /// response: a certificate out of date, one it does not trust (self-signed, of an unknown
  /// issuer, for another host: a captive portal answering for the API), or a handshake that
  /// failed (https sent to a plain http port). `nil` for any other message.
  private static func secureConnectionFailure(_ message: String) -> URLError.Code? {
    if message.hasPrefix("SSL certificate problem: certificate has expired") {
      return .serverCertificateHasBadDate
    }
    if message.hasPrefix("SSL certificate problem: certificate is not yet valid") {
      return .serverCertificateNotYetValid
    }
    if message.hasPrefix("SSL certificate problem")
      || message.hasPrefix("SSL: no alternative certificate subject")
      || message.hasPrefix("SSL: certificate subject name")
    {
      return .serverCertificateUntrusted
    }
    return message.contains("SSL") || message.contains("TLS") ? .secureConnectionFailed : nil
  }

  /// Whether the `received` bytes fall short of the length `head` declared. Only an unencoded
  /// body can tell: the declared length of a compressed one is the compressed size.
  private static func isCutShort(_ head: HTTPURLResponse?, received: Int) -> Bool {
    guard let head, !declaresContentCoding(head) else { return false }
    return head.expectedContentLength > Int64(received)
  }

  /// Whether `head` declares a content coding other than `identity`, which libcurl undoes as the
  /// body arrives.
  private static func declaresContentCoding(_ head: HTTPURLResponse?) -> Bool {
    guard let coding = head?.value(forHTTPHeaderField: "Content-Encoding") else { return false }
    let trimmed = coding.trimmingCharacters(in: .whitespaces)
    return !trimmed.isEmpty && trimmed.lowercased() != "identity"
  }

  /// Whether swift-corelibs-foundation sends requests for `url` at all: a lower-case `http` or
  /// `https` scheme, and a host.
  private static func isSendable(_ url: URL?) -> Bool {
    guard let url, url.scheme == "http" || url.scheme == "https" else { return false }
    return !(url.host ?? "").isEmpty
  }

  private static func libcurlMessage(of error: URLError) -> String {
    error.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
  }
}
