/// The sample API's fixed data. `scripts/sample_api.py` builds exactly the same values with the
/// same rules; the contract tests compare the two servers, so change both together.
enum SampleData {
  /// The one account that can log in.
  static let username = "demo"
  static let password = "correct-horse-battery-staple"

  /// The first id given to a created todo.
  static let firstCreatedTodoID = 201

  /// 200 todos, 20 for each of 10 users, with JSONPlaceholder-like titles. Deterministic, so
  /// both servers and every test see the same list.
  static let todos: [SampleTodo] = (1...200).map { id in
    let wordCount = 3 + id % 4
    let title = (0..<wordCount)
      .map { index in words[(id * 7 + index * 11) % words.count] }
      .joined(separator: " ")
    return SampleTodo(userId: (id - 1) / 20 + 1, id: id, title: title, completed: (id * 37) % 5 < 2)
  }

  static let article = SampleArticle(
    id: 1,
    title: "Streams that outlive their errors",
    body: "A failed request should end one piece of work, never the stream of user input that started it.",
    publishedAt: "2026-11-21T08:00:00Z"
  )

  private static let words = [
    "delectus", "aut", "autem", "quis", "ut", "nam", "facere", "fugiat", "veniam", "laboriosam",
    "qui", "sint", "omnis", "et", "illo", "expedita", "consequatur", "molestiae", "nesciunt",
    "repellendus",
  ]
}

/// A todo in the sample API's wire format.
struct SampleTodo: Codable, Sendable, Hashable {
  var userId: Int
  var id: Int
  var title: String
  var completed: Bool
}

/// The article in the sample API's wire format.
struct SampleArticle: Codable, Sendable, Hashable {
  var id: Int
  var title: String
  var body: String
  var publishedAt: String
}
