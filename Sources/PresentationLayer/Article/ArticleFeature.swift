public import DomainLayer

/// The today's-article screen.
///
/// On appear it loads the article (latest wins). While loading, and after a failure, it shows
/// `Article.placeholder`; a failure also emits ``Event/loadFailed(message:)`` once, for an alert.
/// The next appear loads the real article.
public struct ArticleFeature: Feature {
  /// What the user does on the article screen.
  public enum Action: Sendable, Hashable {
    /// The screen appeared: load the article, replacing any load still under way.
    case appeared
  }

  /// What changes the article screen.
  public enum SideEffect: Sendable, Hashable {
    /// A load went out.
    case loadStarted
    /// The real article arrived and is shown.
    case loaded(Article)
    /// The load failed: the placeholder is shown.
    case loadFailed
  }

  /// What the article screen shows.
  public struct State: Sendable, Hashable {
    /// The article shown: the real one, or the placeholder.
    public var article = Article.placeholder
    /// Whether a load is under way.
    public var isLoading = false

    /// Creates the screen showing the placeholder.
    public init() {}
  }

  /// The article screen's one-shot outputs.
  public enum Event: Sendable, Hashable {
    /// The article could not be loaded; `message` is for an alert.
    case loadFailed(message: String)
  }

  /// The one lane of this screen's work.
  public enum Lane: Sendable, Hashable {
    /// Loading the article; a newer load cancels the one under way.
    case load
  }

  private let loadArticle: any LoadTodaysArticleUseCase

  /// Creates the feature on top of the load use case.
  public init(loadArticle: any LoadTodaysArticleUseCase) {
    self.loadArticle = loadArticle
  }

  /// Loads the article on every appear, the latest load winning.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .appeared:
      let loadArticle = self.loadArticle
      return .run(.latest(.load), immediate: [.loadStarted]) { effects in
        await effects.follow(
          loadArticle(),
          onValue: { .apply(.loaded($0)) },
          onFailure: { .apply(.loadFailed, emitting: .loadFailed(message: $0.message)) }
        )
      }
    }
  }

  /// Folds one side effect into the screen's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loadStarted:
      state.isLoading = true
    case .loaded(let article):
      state.isLoading = false
      state.article = article
    case .loadFailed:
      state.isLoading = false
      state.article = .placeholder
    }
  }
}

extension ArticleFeature.State: CustomStringConvertible {
  /// Which article is shown (its title, or the placeholder) and whether a load is under way.
  public var description: String {
    let shown = article.isPlaceholder ? "placeholder" : article.title.quoted
    return "Article(\(shown)\(isLoading ? ", loading" : ""))"
  }
}

/// The today's-article screen's view model.
public typealias ArticleViewModel = ViewModel<ArticleFeature>

extension ViewModel where F == ArticleFeature {
  /// Creates the view model showing the placeholder.
  public nonisolated convenience init(loadArticle: any LoadTodaysArticleUseCase) {
    self.init(ArticleFeature(loadArticle: loadArticle), initialState: ArticleFeature.State())
  }
}
