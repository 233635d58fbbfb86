/// The todo wire shape, declared here so the network tests do not depend on the data layer.
struct TestTodo: Decodable, Sendable, Equatable {
  var userId: Int
  var id: Int
  var title: String
  var completed: Bool
}
