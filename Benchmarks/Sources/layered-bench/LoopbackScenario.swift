import Foundation
import NetworkLayer
import PresentationLayer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// GET a 16 KB JSON list and decode it, 64 and 1 in flight, against a loopback nginx started by
/// `scripts/nginx-bench`, which passes its URL in `LAYERED_BENCH_LOOPBACK_URL`; then the full
/// stack, view model included, loading the article nginx serves, 1 in flight. Every variant uses
/// a session of the same configuration (ephemeral, no cache, up to 64 connections a host).
///
/// The full stack is measured here as well as over the in-process transport of `stack`, whose
/// answer is ready on Foundation's work queue within microseconds of the task's start: over a
/// socket, the answer comes after the call has been handed over, as it does in an app.
struct LoopbackScenario: BenchmarkScenario {
  let name = "loopback"

  @MainActor
  func run() async {
    guard
      let base = ProcessInfo.processInfo.environment["LAYERED_BENCH_LOOPBACK_URL"],
      let baseURL = URL(string: base)
    else {
      print(
        "loopback: skipped; run under scripts/nginx-bench, which starts nginx and sets LAYERED_BENCH_LOOPBACK_URL"
      )
      return
    }
    let raw = RawFetch<[ListItem]>(session: Self.makeSession(), url: baseURL.appending(path: "todos.json"))
    let client = URLSessionHTTPClient(baseURL: baseURL, session: Self.makeSession())
    let endpoint = Endpoint<[ListItem]>(path: ["todos.json"])
    for inFlight in [64, 1] {
      let medians = await Comparison(
        title: "loopback: GET 16 KB JSON list + decode from nginx, \(inFlight) in flight",
        operationsPerRound: inFlight == 1 ? 1_000 : 4_096,
        rounds: 9,
        variants: [
          .init(name: "raw URLSession + JSONDecoder") { count in
            await fanOut(count, inFlight: inFlight) { _ = await raw() }
          },
          .init(name: "Layered URLSessionHTTPClient") { count in
            await fanOut(count, inFlight: inFlight) {
              do { _ = try await client.send(endpoint) } catch {
                fatalError("Layered request failed: \(error)")
              }
            }
          },
        ]
      ).run()
      if let rawTime = medians["raw URLSession + JSONDecoder"],
        let layered = medians["Layered URLSessionHTTPClient"]
      {
        print("  throughput Layered / raw: \(ratio(rawTime, layered))")
      }
    }
    await fullStack(baseURL)
  }

  /// The `stack` scenario's first table, over the socket, without the observed view model.
  @MainActor
  private func fullStack(_ baseURL: URL) async {
    let stack = FullStackVariants(baseURL: baseURL, makeSession: Self.makeSession)
    let viewModel = stack.makeViewModel()
    await Comparison(
      title: "loopback: view model → use case → repository → client, GET an article from nginx, 1 in flight",
      operationsPerRound: 1_000,
      rounds: 9,
      variants: stack.variants + [
        .init(name: "Layered view model → state") { count in
          for _ in 0..<count {
            await viewModel.sendAndWait(.appeared)
            // nginx serves one article, so a load shows as the end of loading, not a new id.
            let state = viewModel.state
            precondition(!state.isLoading && !state.article.isPlaceholder, "the view model failed to load")
          }
        }
      ]
    ).run()
  }

  private static func makeSession() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpMaximumConnectionsPerHost = 64
    return URLSession(configuration: configuration)
  }
}

/// One entry of the served list.
private struct ListItem: Decodable, Sendable {
  let id: Int
  let title: String
  let completed: Bool
}
