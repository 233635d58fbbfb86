import DataLayer
public import DomainLayer
import NetworkLayer
public import PresentationLayer

/// The composition root: the one place that knows every concrete type and wires them together.
///
/// Everything below it is written against protocols (repositories, use cases, `HTTPClient`,
/// `TokenStore`); this type picks the mechanisms and hands out ready-made view models. Swap a
/// mechanism here and no other file changes.
///
/// The graph: one `URLSessionHTTPClient` whose interceptor chain is `[AuthInterceptor,
/// RetryPolicy]` for the API, and a second one without the chain for login and token refresh
/// (the refresh must not wait for itself). Tokens and the todo cache live where the
/// configuration says. The session repository follows the auth interceptor's session-ended
/// signal and forgets the todo cache whenever the session ends.
public final class AppContainer: Sendable {
  private let sessionRepository: any SessionRepository
  private let todoRepository: any TodoRepository
  private let articleRepository: any ArticleRepository

  /// Builds the live graph for `configuration`.
  public init(configuration: AppConfiguration) {
    let (tokenStore, todoCache) = Self.stores(for: configuration.storage)
    let plainClient = URLSessionHTTPClient(
      baseURL: configuration.baseURL,
      session: configuration.session,
      interceptors: [RetryPolicy()],
      monitors: configuration.monitors
    )
    let authInterceptor = AuthInterceptor(
      store: tokenStore,
      refresher: RemoteTokenRefresher(client: plainClient),
      monitors: configuration.monitors
    )
    let apiClient = URLSessionHTTPClient(
      baseURL: configuration.baseURL,
      session: configuration.session,
      interceptors: [authInterceptor, RetryPolicy()],
      monitors: configuration.monitors
    )
    sessionRepository = RemoteSessionRepository(
      client: plainClient,
      tokenStore: tokenStore,
      sessionEvents: authInterceptor.sessionEvents,
      forgetUserData: { todoCache.clear() }
    )
    todoRepository = RemoteTodoRepository(client: apiClient, cache: todoCache)
    articleRepository = RemoteArticleRepository(client: apiClient)
  }

  /// Follows whether someone is signed in (an app's root navigation listens to this).
  public var observeSession: any ObserveSessionUseCase {
    ObserveSession(repository: sessionRepository)
  }

  /// Signs the current user out.
  public var logOut: any LogOutUseCase {
    LogOut(repository: sessionRepository)
  }

  /// A new view model for the sign-in screen.
  public func makeLoginViewModel() -> LoginViewModel {
    LoginViewModel(logIn: LogIn(repository: sessionRepository))
  }

  /// A new view model for the todo-list screen.
  public func makeTodoListViewModel() -> TodoListViewModel {
    TodoListViewModel(
      observeTodos: ObserveTodos(repository: todoRepository),
      toggleTodo: ToggleTodo(repository: todoRepository),
      createTodo: CreateTodo(repository: todoRepository),
      observeSession: observeSession
    )
  }

  /// A new view model for the today's-article screen.
  public func makeArticleViewModel() -> ArticleViewModel {
    ArticleViewModel(loadArticle: LoadTodaysArticle(repository: articleRepository))
  }

  private static func stores(for storage: AppConfiguration.Storage) -> (any TokenStore, any TodoCache) {
    switch storage {
    case .inMemory:
      (InMemoryTokenStore(), InMemoryTodoCache())
    case .directory(let directory):
      (
        FileTokenStore(fileURL: directory.appendingPathComponent("tokens.json")),
        FileTodoCache(fileURL: directory.appendingPathComponent("todos.json"))
      )
    }
  }
}
