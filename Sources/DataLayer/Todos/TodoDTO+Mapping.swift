public import DomainLayer

extension TodoDTO: DomainConvertible {
  /// The domain value for this DTO, or `DomainError.invalidData(reason:)` if the server sent a
  /// todo that breaks one of `Todo`'s invariants. Never traps, whatever the server sent.
  public func toDomain() throws(DomainError) -> Todo {
    try Todo(id: id, userID: userId, title: title, isCompleted: completed)
  }
}
