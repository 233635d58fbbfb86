/// Cached todos first, then fresh ones, from a ``TodoRepository``.
public struct ObserveTodos: ObserveTodosUseCase {
  private let repository: any TodoRepository

  /// Creates the use case.
  public init(repository: any TodoRepository) {
    self.repository = repository
  }

  /// Yields the cached list at once when there is one, marked as from the cache, then the fresh
  /// list, marked as from the server, or the failure that prevented it.
  public func callAsFunction() -> OutcomeStream<Snapshot<[Todo]>, DomainError> {
    .outcomes { [repository] sink in
      if let cached = repository.cachedTodos() { sink.yield(Snapshot(cached, from: .cache)) }
      do throws(DomainError) {
        sink.yield(Snapshot(try await repository.todos(), from: .server))
      } catch {
        sink.yield(failure: error)
      }
    }
  }
}
