public import AppComposition
public import DomainLayer
public import Foundation
public import NetworkLayer
public import PresentationLayer

extension AppConfiguration {
  /// The graph for this backend at `baseURL`: its login contract, and a short leeway for its
  /// five-minute tokens.
  public static func jwtTodos(baseURL: URL, transport: any HTTPTransport) -> AppConfiguration {
    var configuration = AppConfiguration(baseURL: baseURL, transport: transport)
    configuration.authContract = JWTAuthContract()
    configuration.refreshLeeway = .seconds(30)
    return configuration
  }
}

extension AppContainer {
  /// The backend's todo list screen, on the container's session.
  public func makeJWTTodoListViewModel() -> TodoListViewModel {
    let repository = RemoteJWTTodoRepository(client: authenticatedClient)
    return TodoListViewModel(
      observeTodos: ObserveTodos(repository: repository),
      toggleTodo: ToggleTodo(repository: repository),
      createTodo: CreateTodo(repository: repository),
      observeSession: observeSession)
  }

  /// The backend's todo list read page by page, on the container's session.
  public func makeJWTTodoPagesViewModel() -> ViewModel<PagedListFeature<Todo>> {
    let loadPage = LoadTodoPage(repository: RemoteJWTTodoRepository(client: authenticatedClient))
    return ViewModel(loadPage: { loadPage(after: $0) })
  }
}
