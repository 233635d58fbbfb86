import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A minimal in-process server: fixed responses, answered synchronously from `startLoading` (on
/// Foundation's work queue for the task), so it costs next to nothing and is the same for the raw
/// and the Layered variants that share it.
///
/// - `http://fixture.invalid/articles/today`: an article whose `id` grows with every request, so
///   that a view model sees a new state for every load;
/// - `http://fixture.invalid/protected/articles/today`: the same, but 401 unless the request
///   carries `Authorization: Bearer fresh`;
/// - `http://fixture.invalid/auth/refresh`: a fresh token pair, counted in ``refreshes``;
/// - `http://hang.invalid/…`: never answers; ``openHangs`` counts the requests still loading.
final class FixtureURLProtocol: URLProtocol {
  static let baseURL = URL(filePath: "/").withHost("fixture.invalid")
  static let hangingURL = URL(filePath: "/").withHost("hang.invalid")

  static let refreshes = Atomic<Int>(0)
  static let openHangs = Atomic<Int>(0)
  private static let articleCounter = Atomic<Int>(0)
  private let isHanging = Atomic<Bool>(false)

  static func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [FixtureURLProtocol.self]
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
  }

  override class func canInit(with request: URLRequest) -> Bool {
    guard let host = request.url?.host else { return false }
    return host == "fixture.invalid" || host == "hang.invalid"
  }

  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url else { return }
    if url.host == "hang.invalid" {
      isHanging.store(true, ordering: .relaxed)
      Self.openHangs.add(1, ordering: .relaxed)
      return
    }
    switch url.path {
    case "/articles/today":
      respond(200, Self.article())
    case "/protected/articles/today":
      if request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh" {
        respond(200, Self.article())
      } else {
        respond(401, Data(#"{"error":"expired"}"#.utf8))
      }
    case "/auth/refresh":
      Self.refreshes.add(1, ordering: .relaxed)
      respond(200, Data(#"{"accessToken":"fresh","refreshToken":"next","expiresIn":3600}"#.utf8))
    default:
      respond(404, Data())
    }
  }

  override func stopLoading() {
    if isHanging.exchange(false, ordering: .relaxed) {
      Self.openHangs.subtract(1, ordering: .relaxed)
    }
  }

  private func respond(_ status: Int, _ body: Data) {
    guard
      let url = request.url,
      let response = HTTPURLResponse(
        url: url,
        statusCode: status,
        httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json", "Content-Length": String(body.count)]
      )
    else { return }
    client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
    if !body.isEmpty { client?.urlProtocol(self, didLoad: body) }
    client?.urlProtocolDidFinishLoading(self)
  }

  private static func article() -> Data {
    let id = articleCounter.add(1, ordering: .relaxed).newValue
    return Data(
      #"{"id":\#(id),"title":"Benchmarks","body":"What Layered adds costs next to nothing.","publishedAt":"2026-01-01T00:00:00Z"}"#
        .utf8
    )
  }
}

extension URL {
  /// `http://<host>`, built from a literal host, so it cannot fail.
  fileprivate func withHost(_ host: String) -> URL {
    var components = URLComponents()
    components.scheme = "http"
    components.host = host
    return components.url ?? self
  }
}
