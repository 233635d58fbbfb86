import DomainLayer
import NetworkLayer

extension Scenario {
  /// Seed scenario 4.
  static let threeCallStyles = Scenario(
    name: "three-call-styles",
    title: "async/await, a completion handler and a stream give the same result and the same typed errors"
  ) { stage in
    struct ArticleWire: Decodable, Sendable, Equatable, CustomStringConvertible {
      var id: Int
      var title: String
      var description: String { "article \(id), \"\(title)\"" }
    }
    let client = URLSessionHTTPClient(baseURL: stage.baseURL, transport: stage.transport)
    let path = "URLSessionHTTPClient.send (three ways) → the same pipeline"

    for endpoint in [
      Endpoint<ArticleWire>(path: ["articles", "today"]), Endpoint<ArticleWire>(path: ["nowhere"]),
    ] {
      stage.step("GET /\(endpoint.path.joined(separator: "/")) three ways", through: path)
      let viaAsync: Result<ArticleWire, NetworkError>
      do throws(NetworkError) {
        viaAsync = .success(try await client.send(endpoint))
      } catch {
        viaAsync = .failure(error)
      }
      let viaCompletion = await withCheckedContinuation { continuation in
        client.send(endpoint) { continuation.resume(returning: $0) }
      }
      var viaStream: [Result<ArticleWire, NetworkError>] = []
      for await outcome in OutcomeStream.outcome(of: { () async throws(NetworkError) in
        try await client.send(endpoint)
      }) {
        viaStream.append(outcome)
      }
      stage.show("async/await", viaAsync)
      stage.show("completion", viaCompletion)
      stage.show("stream", viaStream)
      stage.expect(viaCompletion == viaAsync && viaStream == [viaAsync], "all three agree")
    }
  }
}
