import Foundation
import NetworkLayer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A body reaches the caller whole and unchanged however the transport hands it over: in one
/// piece, as small responses come, or in many, with or without a declared length.
@Suite("Response bodies in pieces")
struct BodyAssemblyTests {
  @Test(
    "a body is handed over whole, in order, whatever pieces it arrived in",
    arguments: [
      (["{\"id\":1}"], true),
      (["{\"id\":1}"], false),
      (["ab", "cd", "ef"], true),
      (["ab", "cd", "ef"], false),
      ([String(repeating: "x", count: 40_000), "y", String(repeating: "z", count: 3)], true),
      ([String(repeating: "x", count: 40_000), "y", String(repeating: "z", count: 3)], false),
    ]
  )
  func piecesAreJoined(pieces: [String], declaresLength: Bool) async throws {
    let client = URLSessionHTTPClient(
      baseURL: try #require(PiecewiseURLProtocol.baseURL), session: PiecewiseURLProtocol.session)
    let body = try await client.send(PiecewiseURLProtocol.endpoint(pieces, declaresLength: declaresLength))
    #expect(String(decoding: body, as: UTF8.self) == pieces.joined())
  }

  @Test("pieces that together pass the size limit fail as too large, though each one fits")
  func piecesCountTowardsTheLimit() async throws {
    let client = URLSessionHTTPClient(
      baseURL: try #require(PiecewiseURLProtocol.baseURL), session: PiecewiseURLProtocol.session,
      maximumResponseSize: 5)
    let result = await client.outcome(PiecewiseURLProtocol.endpoint(["abc", "def"], declaresLength: false))
    #expect(result == .failure(.responseTooLarge(limit: 5)))
  }
}

/// Answers 200 with the body given in the request's query, one `didLoad` per `piece` item, with a
/// `Content-Length` unless `length=none`.
private final class PiecewiseURLProtocol: URLProtocol {
  static let baseURL = URL(string: "http://pieces.invalid")

  static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [PiecewiseURLProtocol.self]
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }()

  static func endpoint(_ pieces: [String], declaresLength: Bool) -> Endpoint<Data> {
    var query = pieces.map { URLQueryItem(name: "piece", value: $0) }
    if !declaresLength { query.append(URLQueryItem(name: "length", value: "none")) }
    return .raw(path: ["body"], query: query)
  }

  override class func canInit(with request: URLRequest) -> Bool {
    request.url?.host == "pieces.invalid"
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let client, let url = request.url,
      let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
    else { return }
    let pieces = items.filter { $0.name == "piece" }.map { Data(($0.value ?? "").utf8) }
    var headers = ["Content-Type": "application/octet-stream"]
    if !items.contains(URLQueryItem(name: "length", value: "none")) {
      headers["Content-Length"] = String(pieces.reduce(0) { $0 + $1.count })
    }
    guard
      let response = HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)
    else { return }
    client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    for piece in pieces { client.urlProtocol(self, didLoad: piece) }
    client.urlProtocolDidFinishLoading(self)
  }

  override func stopLoading() {}
}
