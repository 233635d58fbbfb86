import DataLayer
import DomainLayer
import Foundation
import NetworkLayer
import PresentationLayer

/// The full stack (view model → use case → repository → client) against raw URLSession +
/// JSONDecoder, one request in flight, through the same in-process URLProtocol; then the layers
/// above the client alone, over a client that answers at once, so their cost is not hidden in the
/// transport's noise.
///
/// Every variant ends with the domain `Article` as main-actor state: the raw ones map the DTO
/// themselves and assign it, `sendAndWait` returns once the view model's state holds the new
/// article.
struct StackScenario: BenchmarkScenario {
  let name = "stack"

  @MainActor
  func run() async {
    await fullStack()
    await aboveTheClient()
  }

  @MainActor
  private func fullStack() async {
    let stack = FullStackVariants(
      baseURL: FixtureURLProtocol.baseURL, makeSession: FixtureURLProtocol.makeSession)
    let viewModel = stack.makeViewModel()
    // A second view model, observed the way a UIKit screen would: `send`, then its state stream.
    let observedViewModel = stack.makeViewModel()
    await Comparison(
      title: "stack: view model → use case → repository → client, in-process URLProtocol, 1 in flight",
      operationsPerRound: 2_000,
      rounds: 11,
      variants: stack.variants + [
        .init(name: "Layered view model → state") { count in
          await loads(count, through: viewModel)
        },
        .init(name: "Layered view model, send + states observer") { count in
          await observedLoads(count, through: observedViewModel)
        },
      ]
    ).run()
  }

  @MainActor
  private func aboveTheClient() async {
    let screen = RawScreen()
    let counter = ArticleCounter()
    let endpoint = Endpoint<ArticleDTO>(path: ["articles", "today"])
    let useCase = LoadTodaysArticle(repository: RemoteArticleRepository(client: InstantArticleClient()))
    let stackViewModel = ArticleViewModel(loadArticle: useCase)
    let stubUseCase = InstantLoadArticle()
    let stubViewModel = ArticleViewModel(loadArticle: stubUseCase)
    await Comparison(
      title: "above the client: the same layers over a client that answers at once (no URLSession)",
      operationsPerRound: 5_000,
      rounds: 11,
      variants: [
        .init(name: "await decode + mapping off main → state") { count in
          for _ in 0..<count {
            screen.article = await decodeOffMain(endpoint, id: counter.next())
          }
        },
        .init(name: "use case stream → for await on main → state") { count in
          for _ in 0..<count {
            for await outcome in useCase() {
              guard case .success(let article) = outcome else { fatalError("the use case failed") }
              screen.article = article
            }
          }
        },
        // The stub variant's floor, as "client in a task of its own" is the full stack's: the
        // same outcome taken in a task of its own and awaited on the main actor. What the view
        // model costs over this is its own bookkeeping (plan, lanes, reports, waiting).
        .init(name: "stub outcome in a task of its own → state") { count in
          for _ in 0..<count {
            screen.article = await Task.detached(priority: Task.currentPriority) {
              for await outcome in stubUseCase() {
                guard case .success(let article) = outcome else { fatalError("the stub failed") }
                return article
              }
              fatalError("the stub ended without an outcome")
            }.value
          }
        },
        .init(name: "view model → stub use case (outcome at once)") { count in
          await loads(count, through: stubViewModel)
        },
        .init(name: "view model → use case → repository → instant client") { count in
          await loads(count, through: stackViewModel)
        },
      ]
    ).run()
  }

  /// Sends `.appeared` `count` times, each time waiting until the state holds a new article.
  @MainActor
  private func loads(_ count: Int, through viewModel: ArticleViewModel) async {
    var shownID = viewModel.state.article.id
    for _ in 0..<count {
      await viewModel.sendAndWait(.appeared)
      let state = viewModel.state
      precondition(!state.isLoading && state.article.id != shownID, "the view model failed to load")
      shownID = state.article.id
    }
  }
}

/// `count` loads through `send`, each seen through the `states` stream, as a screen observes them.
@MainActor
private func observedLoads(_ count: Int, through viewModel: ArticleViewModel) async {
  var states = viewModel.states.makeAsyncIterator()
  var shownID = viewModel.state.article.id
  for _ in 0..<count {
    viewModel.send(.appeared)
    while let state = await states.next(isolation: #isolation) {
      if !state.isLoading, state.article.id != shownID {
        shownID = state.article.id
        break
      }
    }
  }
}

/// What an app writes without layers, minus the network: decode and map off the main actor.
private nonisolated func decodeOffMain(_ endpoint: Endpoint<ArticleDTO>, id: Int) async -> Article {
  do { return try endpoint.decode(InstantArticle.body(id: id)).toDomain() } catch {
    fatalError("decoding failed: \(error)")
  }
}

/// A load use case whose one outcome is ready at once: what the view model's runtime costs,
/// without any work underneath.
private struct InstantLoadArticle: LoadTodaysArticleUseCase {
  private let counter = ArticleCounter()

  func callAsFunction() -> OutcomeStream<Article, DomainError> {
    .outcome { [counter] () async throws(DomainError) in
      try Article(id: counter.next(), title: "Benchmarks", body: "Stub.", publishedAt: Date())
    }
  }
}
