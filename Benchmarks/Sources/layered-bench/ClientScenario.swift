import DataLayer
import Foundation
import NetworkLayer

/// The client alone against raw URLSession + JSONDecoder, one request in flight, both through the
/// same in-process fixed-response URLProtocol: what remains is what the client itself costs.
struct ClientScenario: BenchmarkScenario {
  let name = "client"

  @MainActor
  func run() async {
    let raw = RawFetch<ArticleDTO>(
      session: FixtureURLProtocol.makeSession(),
      url: FixtureURLProtocol.baseURL.appending(path: "articles/today")
    )
    let client = URLSessionHTTPClient(
      baseURL: FixtureURLProtocol.baseURL, session: FixtureURLProtocol.makeSession())
    let endpoint = Endpoint<ArticleDTO>(path: ["articles", "today"])
    await Comparison(
      title: "client: GET + decode, in-process URLProtocol, 1 in flight",
      operationsPerRound: 2_000,
      rounds: 11,
      variants: [
        .init(name: "raw URLSession + JSONDecoder") { count in
          for _ in 0..<count { _ = await raw() }
        },
        .init(name: "Layered URLSessionHTTPClient") { count in
          for _ in 0..<count {
            do { _ = try await client.send(endpoint) } catch {
              fatalError("Layered request failed: \(error)")
            }
          }
        },
      ]
    ).run()
  }
}
