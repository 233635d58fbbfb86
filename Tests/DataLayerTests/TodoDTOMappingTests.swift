import DataLayer
import DomainLayer
import Testing

@Suite("Todo DTO mapping")
struct TodoDTOMappingTests {
  @Test("a DTO maps to the entity field by field")
  func maps() throws {
    let dto = TodoDTO(userId: 2, id: 21, title: "water the plants", completed: true)
    #expect(try dto.toDomain() == Todo(id: 21, userID: 2, title: "water the plants", isCompleted: true))
  }

  @Test(
    "a DTO that breaks an invariant becomes invalid data",
    arguments: [
      TodoDTO(userId: 1, id: 0, title: "x", completed: false),
      TodoDTO(userId: -1, id: 1, title: "x", completed: false),
      TodoDTO(userId: 1, id: 1, title: " ", completed: false),
    ]
  )
  func invalid(dto: TodoDTO) {
    #expect {
      try dto.toDomain()
    } throws: { error in
      guard case .invalidData = error as? DomainError else { return false }
      return true
    }
  }
}
