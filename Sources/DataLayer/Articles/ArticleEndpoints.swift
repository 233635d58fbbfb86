import NetworkLayer

/// The article endpoints of the API.
enum ArticleEndpoints {
  /// `GET /articles/today`. Public: the article is readable without signing in.
  static let today = Endpoint<ArticleDTO>(path: ["articles", "today"])
}
