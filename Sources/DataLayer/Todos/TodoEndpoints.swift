import NetworkLayer

/// The todo endpoints of the API, described once so the repository only chooses which to send.
enum TodoEndpoints {
  /// `GET /todos`: every todo, ordered by id.
  static let list = Endpoint<[TodoDTO]>(path: ["todos"])
}
