import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Responses whose framing lies, sent byte for byte by the Python server's framing probe. libcurl
/// reads each of these as best it can and reports success; the client must not.
@Suite(
  "Response framing from a real socket",
  .enabled(if: LoopbackSampleAPI.shouldRun, LoopbackSampleAPI.skipReason),
  .timeLimit(.minutes(1))
)
struct ResponseFramingTests {
  /// A response whose body end cannot be trusted: the query of the probe, and what libcurl alone
  /// would have handed over as a success.
  struct Lie: CustomTestStringConvertible, Sendable {
    var contentLengths: [String]
    var body: String
    var testDescription: String {
      "Content-Length \(contentLengths.map { "'\($0)'" }.joined(separator: " and "))"
    }
  }

  @Test(
    "a response whose Content-Length is not one length cannot be parsed",
    arguments: [
      // libcurl keeps the leading digits: "hello".
      Lie(contentLengths: ["5abc"], body: "hello world"),
      Lie(contentLengths: ["0x5"], body: "hello world"),
      Lie(contentLengths: ["5 5"], body: "hello world"),
      // Past Int64: libcurl reads until the connection closes, and calls the 3 bytes complete.
      Lie(contentLengths: ["99999999999999999999999"], body: "abc"),
      // Two lengths: libcurl takes the last, "abcdefghij"; a proxy might take the first.
      Lie(contentLengths: ["3", "10"], body: "abcdefghij"),
      Lie(contentLengths: ["3, 10"], body: "abcdefghij"),
    ]
  )
  func untrustworthyFraming(lie: Lie) async throws {
    try await Self.withClient { client in
      let result = await client.outcome(Self.probe(lie.contentLengths, chunked: false, body: lie.body))
      #expect(result == .failure(.transport(code: URLError.Code.cannotParseResponse.rawValue)))
    }
  }

  @Test(
    "a length repeated alike, with or without spaces, is the length",
    arguments: [["11"], ["11", "11"], ["11, 11"], [" 011 "]]
  )
  func repeatedLength(contentLengths: [String]) async throws {
    try await Self.withClient { client in
      let body = try await client.send(Self.probe(contentLengths, chunked: false, body: "hello world"))
      #expect(String(decoding: body, as: UTF8.self) == "hello world")
    }
  }

  @Test(
    "a chunked body is framed by its chunks, whatever Content-Length says",
    arguments: [["3"], ["5abc"]]
  )
  func chunkedWins(contentLengths: [String]) async throws {
    try await Self.withClient { client in
      let body = try await client.send(Self.probe(contentLengths, chunked: true, body: "hello world"))
      #expect(String(decoding: body, as: UTF8.self) == "hello world")
    }
  }

  @Test("a body cut short of its Content-Length is a lost connection, as Apple's Foundation reports it")
  func bodyCutShort() async throws {
    try await Self.withClient { client in
      let result = await client.outcome(Self.probe(["500"], chunked: false, body: "hello"))
      #expect(result == .failure(.transport(code: URLError.Code.networkConnectionLost.rawValue)))
    }
  }

  @Test(
    "a body cut short of an enormous Content-Length is a lost connection, under a limit that allows that length too"
  )
  func enormousLengthCutShort() async throws {
    try await Self.withClient { client in
      // The client sizes its buffer for a body in pieces from the announced length: a server
      // must not make it allocate 9 EB, which traps, or any length it then never sends.
      var endpoint = Self.probe(["9000000000000000000"], chunked: false, body: "hello")
      endpoint.maximumResponseSize = .max
      let result = await client.outcome(endpoint)
      #expect(result == .failure(.transport(code: URLError.Code.networkConnectionLost.rawValue)))
    }
  }

  @Test(
    "a reply that is not HTTP/1.x is a response that cannot be parsed, not an unsupported URL",
    arguments: [
      "HTTP/1.1 000 Zero\r\nContent-Length: 2\r\n\r\n[]",
      "HTTP/1.1 1000 Big\r\nContent-Length: 2\r\n\r\n[]",
      // HTTP/0.9: a body without a status line.
      "[]",
      "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    ]
  )
  func unreadableReply(reply: String) async throws {
    // libcurl calls each an unsupported protocol, and swift-corelibs-foundation an unsupported
    // URL, which would send a developer looking at a URL that is fine.
    let result = try await Self.outcome(ofRawReply: reply)
    #expect(result == .failure(.transport(code: URLError.Code.cannotParseResponse.rawValue)))
  }

  @Test(
    "a reply that curl reads but Foundation on Linux cannot is a response that cannot be parsed",
    arguments: [
      // RFC 9112's grammar wants the space before an empty reason; curl does without it.
      "HTTP/1.1 200\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]",
      // RFC 9112 lets a recipient take a bare LF for the end of a line, as curl does.
      "HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: 2\n\n[]",
    ]
  )
  func replyOnlyCurlReads(reply: String) async throws {
    // swift-corelibs-foundation's header parser refuses each line, and libcurl then fails the
    // transfer with no code of its own. When this test fails, Foundation reads them, and the
    // transport article's sentence on them goes.
    let result = try await Self.outcome(ofRawReply: reply)
    #expect(result == .failure(.transport(code: URLError.Code.cannotParseResponse.rawValue)))
  }

  @Test(
    "a reply with a header byte that is not UTF-8, as a Latin-1 file name, cannot be parsed on Linux"
  )
  func replyWithLatin1Header() async throws {
    // RFC 9110 lets a field value hold such bytes (obs-text) and curl reads them, but
    // swift-corelibs-foundation reads each header line as UTF-8 and fails the whole reply, raw
    // URLSession included. When this test fails, Foundation reads them, and the transport
    // article's sentence on them goes.
    let reply = RawReply.closing(
      status: "200 OK",
      header: "Content-Type: application/json\r\nContent-Disposition: attachment; filename=\"café.json\"",
      body: "[]")
    var result = Result<Data, NetworkError>.failure(.cancelled)
    try await Self.withClient { client in
      result = await client.outcome(.rawProbe(replying: reply, inLatin1: true))
    }
    #expect(result == .failure(.transport(code: URLError.Code.cannotParseResponse.rawValue)))
    // The same reply in UTF-8 is read.
    try await Self.withClient { client in
      result = await client.outcome(.rawProbe(replying: reply))
    }
    #expect(result == .success(Data("[]".utf8)))
  }

  /// A reply, sent byte for byte by the raw probe, and the failure it must end in.
  struct Broken: CustomTestStringConvertible, Sendable {
    var name: String
    var reply: String
    var failure: URLError.Code
    var testDescription: String { name }
  }

  @Test(
    "a reply libcurl fails without a code of its own ends in the failure it is, not an unknown one",
    arguments: [
      Broken(
        name: "a header line without a colon",
        reply: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nNo colon here\r\n\r\n[]",
        failure: .cannotParseResponse),
      Broken(
        name: "a chunk size that is not hexadecimal",
        reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n[]\r\n0\r\n\r\n",
        failure: .cannotParseResponse),
      Broken(
        name: "a gzip body that is not gzip",
        reply: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 5\r\n\r\nhello",
        failure: .cannotDecodeContentData),
      Broken(
        name: "a content coding nobody knows",
        reply: "HTTP/1.1 200 OK\r\nContent-Encoding: zork\r\nContent-Length: 5\r\n\r\nhello",
        failure: .cannotDecodeContentData),
      // What Apple's Foundation reports, and what a retry policy knows to retry.
      Broken(
        name: "a chunked body cut off by the connection closing",
        reply: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n",
        failure: .networkConnectionLost),
    ]
  )
  func uncodedFailure(broken: Broken) async throws {
    let result = try await Self.outcome(ofRawReply: broken.reply)
    #expect(result == .failure(.transport(code: broken.failure.rawValue)))
  }

  /// What the client makes of `reply`, sent byte for byte by the raw probe.
  private static func outcome(ofRawReply reply: String) async throws -> Result<Data, NetworkError> {
    var result = Result<Data, NetworkError>.failure(.cancelled)
    try await withClient { client in
      result = await client.outcome(.rawProbe(replying: reply))
    }
    return result
  }

  private static func withClient(_ body: (URLSessionHTTPClient) async throws -> Void) async throws {
    try await LoopbackSampleAPI.with { server in
      try await body(URLSessionHTTPClient(baseURL: server.baseURL, session: .loopbackTesting()))
    }
  }

  private static func probe(_ contentLengths: [String], chunked: Bool, body: String) -> Endpoint<Data> {
    var query = contentLengths.map { URLQueryItem(name: "contentLength", value: $0) }
    query.append(URLQueryItem(name: "body", value: body))
    if chunked { query.append(URLQueryItem(name: "chunked", value: "1")) }
    return .raw(path: ["_probe", "framing"], query: query)
  }
}
