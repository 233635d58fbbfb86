import DataLayer
import DomainLayer
import Foundation
import NetworkLayer
import PresentationLayer

/// The full stack (view model → use case → repository → client) against raw URLSession +
/// JSONDecoder, one request in flight, through the same in-process URLProtocol.
///
/// Both variants end with the domain `Article` as main-actor state: the raw one maps the DTO
/// itself and assigns it, `sendAndWait` returns once the view model's state holds the new article.
struct StackScenario: BenchmarkScenario {
  let name = "stack"

  @MainActor
  func run() async {
    let raw = RawFetch<ArticleDTO>(
      session: FixtureURLProtocol.makeSession(),
      url: FixtureURLProtocol.baseURL.appending(path: "articles/today")
    )
    let screen = RawScreen()
    let client = URLSessionHTTPClient(
      baseURL: FixtureURLProtocol.baseURL, session: FixtureURLProtocol.makeSession())
    let viewModel = ArticleViewModel(
      loadArticle: LoadTodaysArticle(repository: RemoteArticleRepository(client: client))
    )
    var shownID = viewModel.state.article.id
    await Comparison(
      title: "stack: view model → use case → repository → client, in-process URLProtocol, 1 in flight",
      operationsPerRound: 2_000,
      rounds: 11,
      variants: [
        .init(name: "raw URLSession + JSONDecoder → state") { count in
          for _ in 0..<count {
            do { screen.article = try await raw().toDomain() } catch {
              fatalError("mapping failed: \(error)")
            }
          }
        },
        .init(name: "Layered view model → state") { count in
          for _ in 0..<count {
            await viewModel.sendAndWait(.appeared)
            let state = viewModel.state
            precondition(!state.isLoading && state.article.id != shownID, "the view model failed to load")
            shownID = state.article.id
          }
        },
      ]
    ).run()
  }
}

/// The raw variant's screen state.
@MainActor
private final class RawScreen {
  var article: Article?
}
