import DataLayer
public import DomainLayer
public import Foundation
public import NetworkLayer
public import PresentationLayer

/// The composition root: the one place that knows every concrete type and wires them together.
///
/// Everything below it is written against protocols (repositories, use cases, `HTTPClient`,
/// `TokenStore`); this type picks the mechanisms and hands out ready-made view models. Swap a
/// mechanism here and no other file changes.
///
/// The graph: one `URLSessionHTTPClient` whose interceptor chain is `[AuthInterceptor,
/// RetryPolicy]` for the API, and a second one whose chain is only `[RetryPolicy]` for the auth
/// contract's login, refresh and logout (without the auth interceptor, because the refresh must
/// not wait for itself); the configuration's own `interceptors` go before `RetryPolicy` in both.
/// Tokens and the todo cache live where the configuration says. The session repository follows
/// the auth interceptor's session-ended signal and forgets the todo cache whenever the session
/// ends.
///
/// A feature built outside this package (in a package that depends on Layered) builds its
/// repositories on the container's seams instead of wiring a second graph:
/// ``authenticatedClient`` signs its requests with the tokens of the one ``session``, so a login
/// through the container (or its login view model) is the feature's login too, and there is
/// never a second token store; ``storageFile(named:)`` places its files next to the
/// container's; ``configuration`` is what the graph was built from. The seams are protocols
/// (`HTTPClient`, `SessionRepository`): concrete types stay named here only.
public final class AppContainer: Sendable {
  /// What the graph was built from.
  public let configuration: AppConfiguration
  /// The client the API repositories use: its interceptor chain is `AuthInterceptor`, the
  /// configuration's own `interceptors`, then `RetryPolicy`, over the same token store as
  /// ``session``, so an endpoint with `requiresAuthentication` carries the signed-in user's
  /// access token, a 401 is answered by one shared refresh, and a refresh the server rejects
  /// ends the session for every feature at once (one it cannot answer keeps it).
  /// Build a new feature's repositories on it, and translate its errors with
  /// `sendTranslatingErrors(_:)` from DataLayer.
  public let authenticatedClient: any HTTPClient
  /// The one session: signs in and out, and publishes every change, including the server
  /// ending it. A feature that keeps user data forgets it in the configuration's
  /// `forgetUserData`, which runs at every end of a session, one this does not report included
  /// (a sign-in over a session never signed out).
  public var session: any SessionRepository { sessionRepository }
  private let sessionRepository: any SessionRepository
  private let signedClient: @Sendable (URL) -> any HTTPClient
  private let todoRepository: any TodoRepository
  private let articleRepository: any ArticleRepository
  // new-feature: repositories
  private let flushStores: @Sendable () async -> Void

  /// Builds the live graph for `configuration`.
  public init(configuration: AppConfiguration) {
    self.configuration = configuration
    Redactor.addCredentialNames(configuration.credentialNames)
    Redactor.addCredentialHeaders(configuration.credentialHeaders)
    let (tokenStore, todoCache, flushStores) = Self.stores(for: configuration)
    self.flushStores = flushStores
    let plainClient = URLSessionHTTPClient(
      baseURL: configuration.baseURL,
      transport: configuration.transport,
      interceptors: configuration.interceptors + [configuration.retryPolicy],
      monitors: configuration.monitors,
      refusalFormat: configuration.refusalFormat
    )
    let authInterceptor = AuthInterceptor(
      store: tokenStore,
      refresher: RemoteTokenRefresher(client: plainClient, contract: configuration.authContract),
      header: configuration.authContract.tokenHeader,
      scheme: configuration.authContract.tokenScheme,
      queryItem: configuration.authContract.tokenQueryItem,
      rejectsAccessToken: { [contract = configuration.authContract] in contract.rejectsAccessToken($0) },
      rejectedRefreshStatuses: configuration.authContract.rejectedRefreshStatuses,
      leeway: configuration.refreshLeeway,
      maximumRefreshes: configuration.maximumRefreshes,
      refreshWindow: configuration.refreshWindow,
      monitors: configuration.monitors
    )
    let signedClient = { @Sendable (baseURL: URL) -> any HTTPClient in
      URLSessionHTTPClient(
        baseURL: baseURL,
        transport: configuration.transport,
        interceptors: [authInterceptor] + configuration.interceptors + [configuration.retryPolicy],
        monitors: configuration.monitors,
        refusalFormat: configuration.refusalFormat
      )
    }
    self.signedClient = signedClient
    let apiClient = signedClient(configuration.baseURL)
    sessionRepository = RemoteSessionRepository(
      client: plainClient,
      contract: configuration.authContract,
      tokenStore: tokenStore,
      sessionEvents: authInterceptor.sessionEvents,
      forgetUserData: { [forgetAppData = configuration.forgetUserData] in
        todoCache.clear()
        forgetAppData()
      },
      renewal: { await authInterceptor.renewal(of: $0) }
    )
    authenticatedClient = apiClient
    todoRepository = RemoteTodoRepository(client: apiClient, cache: todoCache)
    articleRepository = RemoteArticleRepository(client: apiClient)
    // new-feature: wiring
  }

  /// A client for another host of the same backend that takes the session's access token
  /// (GitHub's uploads host, Dropbox's content host), built as ``authenticatedClient`` is and
  /// sharing its interceptor: its requests carry the one session's token, a 401 there joins the
  /// one shared refresh, and a session that ends, ends on every host. Name only hosts the backend
  /// owns, since each receives the access token; any other origin is refused it, as on
  /// ``authenticatedClient``. A second `AuthInterceptor` over the same tokens would refresh beside
  /// this one, and a server that rotates refresh tokens then takes the second refresh for a stolen
  /// token.
  public func authenticatedClient(for baseURL: URL) -> any HTTPClient {
    signedClient(baseURL)
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

  /// A new view model for the whole todo list read page by page, twenty todos at a time.
  public func makeTodoPagesViewModel() -> ViewModel<PagedListFeature<Todo>> {
    let loadPage = LoadTodoPage(repository: todoRepository)
    return ViewModel(loadPage: { loadPage(after: $0) })
  }

  /// A new view model for the app's flow: sign-in while nobody is signed in, then the todo list,
  /// and sign-in again when the session ends. Send it `.started` once.
  public func makeAppFlowViewModel() -> AppFlowViewModel {
    let flow = AppFlowFeature(
      login: LoginFeature(logIn: LogIn(repository: sessionRepository)),
      todos: TodoListFeature(
        observeTodos: ObserveTodos(repository: todoRepository),
        toggleTodo: ToggleTodo(repository: todoRepository),
        createTodo: CreateTodo(repository: todoRepository), observeSession: observeSession),
      observeSession: observeSession)
    return AppFlowViewModel(flow, initialState: AppFlowFeature.State())
  }

  /// A new view model for the todo search screen, timing its pause on `clock`.
  public func makeTodoSearchViewModel(clock: any Clock<Duration> = ContinuousClock()) -> TodoSearchViewModel {
    let search = SearchTodos(repository: todoRepository)
    return TodoSearchViewModel(search: { search($0) }, clock: clock)
  }

  /// A new view model for the todo screen made of parts: a search bar over its list, and an editor
  /// of a new todo shown as a sheet. The search's pause and the banner are timed on `clock`.
  public func makeTodoScreenViewModel(clock: any Clock<Duration> = ContinuousClock()) -> TodoScreenViewModel {
    TodoScreenViewModel(
      searchTodos: SearchTodos(repository: todoRepository),
      createTodo: CreateTodo(repository: todoRepository),
      clock: clock)
  }

  /// A new view model for the today's-article screen.
  public func makeArticleViewModel() -> ArticleViewModel {
    ArticleViewModel(loadArticle: LoadTodaysArticle(repository: articleRepository))
  }

  // new-feature: view models

  /// Where a feature keeps a file of its own: `name` inside the configured storage directory.
  ///
  /// `nil` with ``AppConfiguration/Storage/inMemory`` (keep the value in memory then), and for a
  /// name that is not one plain file name (empty, `.`, `..`, containing `/` or NUL) or that is
  /// one of the container's own files (`tokens.json`, `todos.json`), so a feature can neither
  /// leave the directory nor overwrite the session. Stores made at this URL are the feature's:
  /// ``flushStorage()`` covers only the container's own.
  public func storageFile(named name: String) -> URL? {
    guard case .directory(let directory) = configuration.storage,
      !name.isEmpty, name != ".", name != "..",
      !name.contains("/"), !name.contains("\0"),
      !Self.ownFileNames.contains(name)
    else { return nil }
    return directory.appendingPathComponent(name, isDirectory: false)
  }

  private static let tokenFileName = "tokens.json"
  private static let todoCacheFileName = "todos.json"
  private static let ownFileNames: Set<String> = [tokenFileName, todoCacheFileName]

  /// Returns once every change to the tokens and the todo cache made before the call is on
  /// disk (with ``AppConfiguration/Storage/directory(_:)``; at once in memory). The file stores
  /// write behind their callers, so call this before the process exits.
  public func flushStorage() async {
    await flushStores()
  }

  private static func stores(
    for configuration: AppConfiguration
  ) -> (any TokenStore, any TodoCache, @Sendable () async -> Void) {
    switch configuration.storage {
    case .inMemory:
      return (configuration.tokenStore ?? InMemoryTokenStore(), InMemoryTodoCache(), {})
    case .directory(let directory):
      let todoCache = FileTodoCache(fileURL: directory.appendingPathComponent(todoCacheFileName))
      if let tokenStore = configuration.tokenStore {
        return (tokenStore, todoCache, { await todoCache.flush() })
      }
      let tokenStore = FileTokenStore(fileURL: directory.appendingPathComponent(tokenFileName))
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
