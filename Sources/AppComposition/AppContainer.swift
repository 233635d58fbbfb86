import DataLayer
public import DomainLayer
import NetworkLayer
public import PresentationLayer

/// The composition root: the one place that knows every concrete type and wires them together.
///
/// Everything below it is written against protocols (``TodoRepository``, ``LoadTodosUseCase``,
/// `HTTPClient`); this type picks the mechanisms (`URLSessionHTTPClient`,
/// `RemoteTodoRepository`, ``LoadTodos``) and hands out ready-made view models. Swap a mechanism
/// here and no other file changes.
public final class AppContainer: Sendable {
  private let todoRepository: any TodoRepository

  /// Builds the live graph for `configuration`.
  public init(configuration: AppConfiguration) {
    let monitors = configuration.monitors
    // The refresh call must not go through the auth interceptor: it gets a client of its own.
    let refreshClient = URLSessionHTTPClient(
      baseURL: configuration.baseURL,
      session: configuration.session,
      monitors: monitors
    )
    let authInterceptor = AuthInterceptor(
      store: InMemoryTokenStore(),
      refresher: RemoteTokenRefresher(client: refreshClient),
      monitors: monitors
    )
    let client = URLSessionHTTPClient(
      baseURL: configuration.baseURL,
      session: configuration.session,
      interceptors: [authInterceptor, RetryPolicy()],
      monitors: monitors
    )
    self.todoRepository = RemoteTodoRepository(client: client)
  }

  /// The use case that loads the todo list.
  public var loadTodos: any LoadTodosUseCase {
    LoadTodos(repository: todoRepository)
  }

  /// A new view model for the todo-list screen.
  public func makeTodoListViewModel() -> TodoListViewModel {
    TodoListViewModel(loadTodos: loadTodos)
  }
}
