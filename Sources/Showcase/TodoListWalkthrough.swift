import DomainLayer
import PresentationLayer

/// Sends `.refresh` to a todo-list view model and prints every state it goes through.
struct TodoListWalkthrough {
  let viewModel: TodoListViewModel

  /// Returns whether the list loaded.
  func run() async -> Bool {
    let states = viewModel.states
    print("→ TodoListViewModel.send(.refresh)")
    viewModel.send(.refresh)
    for await state in states {
      print("  state: \(summary(of: state))")
      switch state {
      case .idle, .loading:
        continue
      case .loaded(let todos):
        printTable(todos)
        return true
      case .failed(let message):
        print("\nThe list could not be loaded: \(message)")
        return false
      }
    }
    return false
  }

  private func summary(of state: TodoListState) -> String {
    switch state {
    case .idle: "idle"
    case .loading: "loading"
    case .loaded(let todos): "loaded(\(todos.count) todos)"
    case .failed(let message): "failed(\"\(message)\")"
    }
  }

  private func printTable(_ todos: [Todo], rows: Int = 5) {
    let users = Set(todos.map(\.userID)).count
    let done = todos.filter(\.isCompleted).count
    print("\n\(todos.count) todos for \(users) users, \(done) completed:")
    for todo in todos.prefix(rows) {
      let id = "#\(todo.id)".padding(toLength: 5, withPad: " ", startingAt: 0)
      print("  \(id) [\(todo.isCompleted ? "x" : " ")] user \(todo.userID)  \(todo.title)")
    }
    if todos.count > rows { print("  … and \(todos.count - rows) more") }
  }
}
