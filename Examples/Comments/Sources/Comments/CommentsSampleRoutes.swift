public import SampleBackend

/// The comments routes, for the in-process sample API: `GET` and `POST /todos/{id}/comments`,
/// both behind the API's bearer check, served from memory.
public enum CommentsSampleRoutes {
  private struct NewComment: Decodable {
    var body: String
  }

  private actor Store {
    var comments: [TodoCommentDTO] = []

    func comments(onTodo todoID: Int) -> [TodoCommentDTO] { comments.filter { $0.todoId == todoID } }

    func add(_ body: String, toTodo todoID: Int) -> TodoCommentDTO {
      let comment = TodoCommentDTO(id: comments.count + 1, todoId: todoID, body: body)
      comments.append(comment)
      return comment
    }
  }

  /// Registers the routes on `api`, with an empty store of their own.
  public static func register(on api: SampleAPI) throws {
    let store = Store()
    try api.register(
      SampleRoute("GET", "/todos/{id}/comments", authenticated: true) { request in
        guard let todoID = request.id() else { return .error(404, "not found") }
        return .json(200, await store.comments(onTodo: todoID))
      })
    try api.register(
      SampleRoute("POST", "/todos/{id}/comments", authenticated: true) { request in
        guard let todoID = request.id() else { return .error(404, "not found") }
        switch request.decodeBody(NewComment.self) {
        case .failure(let rejection): return rejection.response
        case .success(let new): return .json(201, await store.add(new.body, toTodo: todoID))
        }
      })
  }
}
