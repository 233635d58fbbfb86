public import DomainLayer

/// A list read a page at a time: the first page when the screen first appears, the next one on
/// "load more", and from the first again on refresh.
///
/// All loads share one lane: a refresh cancels any load, so no page of the old list lands on the
/// new one. Load-more does nothing while anything loads or once ``State/hasReachedEnd``, and queues
/// rather than drops: a page shows before its load ends, and an endless list asks for more at once.
/// A failed first page keeps what was shown and says so in ``State/phase``; a failed load-more
/// keeps the list and its place, so the next tap asks for that page again. An item is shown once:
/// one a later page repeats (as offset paging does when an item is added before it) replaces its
/// older copy in place, and a page holding one twice shows the first. A next page that brings no
/// item not already shown ends the list.
public struct PagedListFeature<Item: Sendable & Hashable & Identifiable>: Feature {
  /// What the user does on the list.
  public enum Action: Sendable, Hashable {
    /// The screen appeared: loads the first page, the first time only.
    case appeared
    /// Pull to refresh: loads the first page again, replacing the list.
    case refreshTapped
    /// The user reached the end of what is shown: loads the next page, if there is one.
    case loadMoreTapped
  }

  /// What changes the list.
  public enum SideEffect: Sendable, Hashable {
    /// A load of the first page went out.
    case loadStarted
    /// The first page arrived: it replaces the list.
    case firstPageReceived(ListPage<Item>)
    /// The first page could not be loaded; the list shown stays.
    case loadFailed(message: String)
    /// A load of the next page went out.
    case moreStarted
    /// The next page arrived: its items join the end of the list, or replace the shown items
    /// with their identifiers.
    case nextPageReceived(ListPage<Item>)
    /// The next page could not be loaded; the list and its place stay.
    case moreFailed(message: String)
  }

  /// What the list shows.
  public struct State: Sendable, Hashable {
    /// Where the first page stands.
    public enum Phase: Sendable, Hashable {
      /// Nothing asked for yet.
      case idle
      /// The first page is loading; ``State/items`` may still show the list before a refresh.
      case loading
      /// The first page is in.
      case loaded
      /// The first page failed; ``State/items`` still holds what was shown before.
      case loadFailed(message: String)
    }

    /// Every item of the pages loaded so far, in order, each identifier once.
    public var items: [Item] = []
    /// Where the first page stands.
    public var phase: Phase = .idle
    /// Whether the next page is loading.
    public var isLoadingMore = false
    /// Where the next page is; `nil` before the first page and after the last.
    public var next: PageToken?
    /// Why the last load-more failed, in words for the user; cleared by the next load.
    public var message: String?

    /// Whether the whole list is shown: the first page is in and no page follows.
    public var hasReachedEnd: Bool { phase == .loaded && next == nil }

    /// Creates the empty list.
    public init() {}
  }

  /// The one lane every load of the list runs in.
  public enum Lane: Sendable, Hashable {
    /// Loading a page, first or next.
    case pages
  }

  private let loadPage: @Sendable (PageToken?) -> OutcomeStream<ListPage<Item>, DomainError>

  /// Creates the feature on `loadPage`, which loads the first page for `nil` and the page a
  /// token points to otherwise (a use case such as `LoadTodoPage`).
  public init(loadPage: @escaping @Sendable (PageToken?) -> OutcomeStream<ListPage<Item>, DomainError>) {
    self.loadPage = loadPage
  }

  /// Loads the first page on the first appearance and on refresh (cancelling any load), the
  /// next on load-more when there is one and nothing else loads.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    let loadPage = self.loadPage
    switch action {
    case .appeared where state.phase != .idle:
      return .none
    case .appeared, .refreshTapped:
      return .run(.latest(.pages), immediate: [.loadStarted]) { effects in
        await effects.follow(
          loadPage(nil),
          onValue: { .apply(.firstPageReceived($0)) },
          onFailure: { .apply(.loadFailed(message: $0.message)) })
      }
    case .loadMoreTapped:
      guard state.phase == .loaded, !state.isLoadingMore, let next = state.next else { return .none }
      return .run(.queue(.pages), immediate: [.moreStarted]) { effects in
        await effects.follow(
          loadPage(next),
          onValue: { .apply(.nextPageReceived($0)) },
          onFailure: { .apply(.moreFailed(message: $0.message)) })
      }
    }
  }

  /// Folds one side effect into the list's state.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .loadStarted:
      state.phase = .loading
      state.isLoadingMore = false
      state.message = nil
    case .firstPageReceived(let page):
      state.items = []
      merge(page.items, into: &state.items)
      state.next = page.next
      state.phase = .loaded
    case .loadFailed(let message):
      state.phase = .loadFailed(message: message)
    case .moreStarted:
      state.isLoadingMore = true
      state.message = nil
    case .nextPageReceived(let page):
      let shown = state.items.count
      merge(page.items, into: &state.items)
      // Nothing but rows already shown: a server repeating a page (an offset it ignores) would
      // send it again for every next one.
      state.next = !page.items.isEmpty && state.items.count == shown ? nil : page.next
      state.isLoadingMore = false
    case .moreFailed(let message):
      state.isLoadingMore = false
      state.message = message
    }
  }

  /// Puts each of `page`'s items in `items` once: in place of the shown one with its identifier,
  /// else at the end; the first of two with one identifier.
  private static func merge(_ page: [Item], into items: inout [Item]) {
    var unseen = Dictionary(page.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    for index in items.indices {
      if let newer = unseen.removeValue(forKey: items[index].id) { items[index] = newer }
    }
    items += page.filter { unseen.removeValue(forKey: $0.id) != nil }
  }
}

extension ViewModel {
  /// Creates the view model of a list read page by page with `loadPage`, empty until it appears.
  public nonisolated convenience init<Item>(
    loadPage: @escaping @Sendable (PageToken?) -> OutcomeStream<ListPage<Item>, DomainError>
  ) where F == PagedListFeature<Item> {
    self.init(PagedListFeature(loadPage: loadPage), initialState: PagedListFeature<Item>.State())
  }
}
