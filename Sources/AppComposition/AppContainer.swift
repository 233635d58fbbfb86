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
  private let flushStores: @Sendable () async -> Void

  /// Builds the live graph for `configuration`.
  public init(configuration: AppConfiguration) {
    let (tokenStore, todoCache, flushStores) = Self.stores(for: configuration.storage)
    self.flushStores = flushStores
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

  /// Returns once every change to the tokens and the todo cache made before the call is on
  /// disk (with ``AppConfiguration/Storage/directory(_:)``; at once in memory). The file stores
  /// write behind their callers, so call this before the process exits.
  public func flushStorage() async {
    await flushStores()
  }

  private static func stores(
    for storage: AppConfiguration.Storage
  ) -> (any TokenStore, any TodoCache, @Sendable () async -> Void) {
    switch storage {
    case .inMemory:
      return (InMemoryTokenStore(), InMemoryTodoCache(), {})
    case .directory(let directory):
      let tokenStore = FileTokenStore(fileURL: directory.appendingPathComponent("tokens.json"))
      let todoCache = FileTodoCache(fileURL: directory.appendingPathComponent("todos.json"))
      return (
        tokenStore, todoCache,
        {
          await tokenStore.flush()
          await todoCache.flush()
        }
      )
    }
  }
}
