import DataLayer
import DomainLayer
import Foundation
import NetworkLayer
import PresentationLayer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The full stack's variants without a view model, loading the article at `articles/today` of a
/// base URL: raw URLSession, the client, and the client in a task of its own. Each ends with the
/// domain `Article` as main-actor state. `stack` runs them over the in-process transport,
/// `loopback` over a socket.
@MainActor
struct FullStackVariants {
  private let client: URLSessionHTTPClient
  private let raw: RawFetch<ArticleDTO>
  private let endpoint = Endpoint<ArticleDTO>(path: ["articles", "today"])
  private let screen = RawScreen()

  /// Variants whose raw and Layered requests each go through a session of their own from
  /// `makeSession`.
  init(baseURL: URL, makeSession: () -> URLSession) {
    raw = RawFetch(session: makeSession(), url: baseURL.appending(path: "articles/today"))
    client = URLSessionHTTPClient(baseURL: baseURL, session: makeSession())
  }

  /// A view model over ``client``, through the use case and the repository.
  func makeViewModel() -> ArticleViewModel {
    ArticleViewModel(loadArticle: LoadTodaysArticle(repository: RemoteArticleRepository(client: client)))
  }

  /// Raw (the baseline), the client, and the client in a task of its own, in that order.
  var variants: [Comparison.Variant] {
    let (raw, client, endpoint, screen) = (raw, client, endpoint, screen)
    return [
      .init(name: "raw URLSession + JSONDecoder → state") { count in
        for _ in 0..<count {
          do { screen.article = try await raw().toDomain() } catch {
            fatalError("mapping failed: \(error)")
          }
        }
      },
      .init(name: "Layered client + mapping → state") { count in
        for _ in 0..<count {
          do { screen.article = try await client.send(endpoint).toDomain() } catch {
            fatalError("Layered request failed: \(error)")
          }
        }
      },
      // The floor of any view model whose work runs in a task it owns: the same client call in
      // a task of its own, its result awaited by the main actor. Resuming a task that waits on
      // the main actor goes through the global executor first, so this costs a thread hand-off
      // more than the variant above, whatever the view model does.
      .init(name: "Layered client in a task of its own → state") { count in
        for _ in 0..<count {
          screen.article = await Task.detached(priority: Task.currentPriority) {
            do { return try await client.send(endpoint).toDomain() } catch {
              fatalError("Layered request failed: \(error)")
            }
          }.value
        }
      },
    ]
  }
}
