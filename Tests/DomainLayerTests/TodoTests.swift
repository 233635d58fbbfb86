import DomainLayer
import Testing

@Suite("Todo invariants")
struct TodoTests {
  @Test("a todo with positive ids and a title is created as given")
  func validTodo() throws {
    let todo = try Todo(id: 3, userID: 1, title: "write tests", isCompleted: true)
    #expect(todo.id == 3)
    #expect(todo.userID == 1)
    #expect(todo.title == "write tests")
    #expect(todo.isCompleted)
  }

  @Test(
    "a todo that breaks an invariant is invalid data, never a crash",
    arguments: [
      (0, 1, "title"),
      (-5, 1, "title"),
      (1, 0, "title"),
      (1, 1, ""),
      (1, 1, "  \n\t "),
    ]
  )
  func invalidTodo(id: Int, userID: Int, title: String) {
    #expect {
      try Todo(id: id, userID: userID, title: title, isCompleted: false)
    } throws: { error in
      guard case .invalidData = error as? DomainError else { return false }
      return true
    }
  }
}
