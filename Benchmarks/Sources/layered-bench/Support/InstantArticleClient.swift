import Foundation
import NetworkLayer
import Synchronization

/// A client over a no-op transport: every request is answered at once, in the caller's task, by
/// decoding a fixed article body with the endpoint's own decoder. What the repository, the DTO
/// mapping and everything above them cost, without URLSession underneath.
struct InstantArticleClient: HTTPClient {
  private let counter = ArticleCounter()

  func send<Response>(_ endpoint: Endpoint<Response>) async throws(NetworkError) -> Response {
    try endpoint.decode(InstantArticle.body(id: counter.next()))
  }
}

/// Article bodies and values whose `id` grows with every call, so each load is a new state.
enum InstantArticle {
  static func body(id: Int) -> Data {
    Data(
      #"{"id":\#(id),"title":"Benchmarks","body":"What Layered adds costs next to nothing.","publishedAt":"2026-01-01T00:00:00Z"}"#
        .utf8
    )
  }
}

/// A counter shared by concurrent callers.
final class ArticleCounter: Sendable {
  private let value = Atomic<Int>(0)

  func next() -> Int {
    value.add(1, ordering: .relaxed).newValue
  }
}
