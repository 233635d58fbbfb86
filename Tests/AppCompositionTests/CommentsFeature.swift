import DataLayer
import DomainLayer
import LayeredSupport
import NetworkLayer
import SampleBackend

/// A "Comments" feature as a package depending on Layered writes it: its own wire type,
/// endpoints and repository, built on nothing but ``AppComposition/AppContainer``'s seams.
struct CommentDTO: Codable, Sendable, Hashable {
  var id: Int
  var todoId: Int
  var body: String
}

struct RemoteCommentRepository {
  private struct NewComment: Codable, Sendable {
    var body: String
  }

  let client: any HTTPClient

  func comments(todoID: Int) async throws(DomainError) -> [CommentDTO] {
    try await client.sendTranslatingErrors(
      Endpoint<[CommentDTO]>(path: ["todos", String(todoID), "comments"], requiresAuthentication: true))
  }

  func add(_ body: String, todoID: Int) async throws(DomainError) -> CommentDTO {
    try await client.sendTranslatingErrors(
      Endpoint<CommentDTO>(
        method: .post,
        path: ["todos", String(todoID), "comments"],
        body: .json(NewComment(body: body)),
        requiresAuthentication: true
      ))
  }
}

/// The feature's server side: two routes registered on the in-process sample API. Each handler
/// writes down the `Authorization` it was given, which it only sees once the API's bearer check
/// let the request through.
final class CommentsRoutes: Sendable {
  private struct NewComment: Decodable {
    var body: String
  }

  /// The `Authorization` header of every request a handler ran for, in order.
  let authorizations = Locked<[String?]>([])
  private let comments = Locked<[CommentDTO]>([])

  func register(on api: SampleAPI) throws {
    try api.register(
      SampleRoute("GET", "/todos/{id}/comments", authenticated: true) { request in
        self.authorizations.withLock { $0.append(request.request.header("Authorization")) }
        guard let todoID = request.id() else { return .error(404, "not found") }
        return .json(200, self.comments.withLock { $0.filter { $0.todoId == todoID } })
      })
    try api.register(
      SampleRoute("POST", "/todos/{id}/comments", authenticated: true) { request in
        self.authorizations.withLock { $0.append(request.request.header("Authorization")) }
        guard let todoID = request.id() else { return .error(404, "not found") }
        switch request.decodeBody(NewComment.self) {
        case .failure(let rejection):
          return rejection.response
        case .success(let new):
          let comment = self.comments.withLock { comments in
            let comment = CommentDTO(id: comments.count + 1, todoId: todoID, body: new.body)
            comments.append(comment)
            return comment
          }
          return .json(201, comment)
        }
      })
  }
}
