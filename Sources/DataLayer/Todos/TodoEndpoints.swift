import Foundation
import NetworkLayer

/// The todo endpoints of the API, described once so the repository only chooses which to send.
/// All of them carry the user's credentials.
enum TodoEndpoints {
  private struct NewTodo: Encodable, Sendable {
    var title: String
    var completed = false
  }

  private struct CompletionChange: Encodable, Sendable {
    var completed: Bool
  }

  /// `GET /todos`: every todo, ordered by id.
  static let list = Endpoint<[TodoDTO]>(path: ["todos"], requiresAuthentication: true)

  /// `GET /todos?q=…`: the todos whose title contains `query`, ignoring case.
  static func search(_ query: String) -> Endpoint<[TodoDTO]> {
    var list = list
    list.query = [URLQueryItem(name: "q", value: query)]
    return list
  }

  /// `GET /todos?pageSize=N`: the first page of the list, each page naming the next.
  static func firstPage(size: Int) -> Endpoint<Page<TodoDTO>> {
    var list = list
    list.query = [URLQueryItem(name: "pageSize", value: String(size))]
    return list.paged(.results())
  }

  /// The domain's name for each field this API can refuse, by the API's name for it: a backend
  /// that calls the title `content` maps `"content": "title"` here.
  static let fieldNames = ["title": "title"]

  /// `POST /todos`: creates a todo. Not idempotent, so never retried automatically: a retry after
  /// a lost response could create it twice.
  static func create(title: String) -> Endpoint<TodoDTO> {
    Endpoint(method: .post, path: ["todos"], body: .json(NewTodo(title: title)), requiresAuthentication: true)
  }

  /// `PATCH /todos/{id}`: sets whether a todo is done. Setting a value (not flipping it) makes
  /// the request safe to retry.
  static func setCompleted(_ isCompleted: Bool, id: Int) -> Endpoint<TodoDTO> {
    Endpoint(
      method: .patch,
      path: ["todos", String(id)],
      body: .json(CompletionChange(completed: isCompleted)),
      requiresAuthentication: true,
      isIdempotent: true
    )
  }
}
