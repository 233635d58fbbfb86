public import AppComposition
import DataLayer

extension AppContainer {
  /// A new view model for the comments of the todo with `todoID`, on the container's one
  /// session: its requests carry the token of the login made through the container.
  public func makeCommentsViewModel(todoID: Int) -> CommentsViewModel {
    let repository = RemoteTodoCommentRepository(client: authenticatedClient)
    return CommentsViewModel(
      CommentsFeature(
        loadComments: LoadComments(repository: repository), addComment: AddComment(repository: repository)),
      initialState: CommentsFeature.State(todoID: todoID))
  }
}
