public import DomainLayer
public import NetworkLayer

/// A ``TodoRepository`` backed by the HTTP API.
///
/// It sends the todo endpoints through an ``HTTPClient``, maps each DTO to a ``Todo``, and turns
/// every ``NetworkError`` into a ``DomainError``. One malformed todo fails the whole load with
/// ``DomainError/invalidData(reason:)``: showing a partial list as if it were complete would be a
/// quieter, worse failure.
public struct RemoteTodoRepository: TodoRepository {
  private let client: any HTTPClient

  /// Creates the repository on top of a client for the API.
  public init(client: any HTTPClient) {
    self.client = client
  }

  public func todos() async throws(DomainError) -> [Todo] {
    let dtos: [TodoDTO]
    do {
      dtos = try await client.send(TodoEndpoints.list)
    } catch {
      throw error.domainError
    }
    return try dtos.map { (dto: TodoDTO) throws(DomainError) -> Todo in try dto.toDomain() }
  }
}
