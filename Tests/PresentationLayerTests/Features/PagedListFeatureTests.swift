import DomainLayer
import LayeredSupport
import LayeredTestSupport
import PresentationLayer
import Testing

@Suite("A list read page by page")
@MainActor
struct PagedListFeatureTests {
  /// A row of the list: written as its number, with a title that a later copy may change.
  struct Row: Sendable, Hashable, Identifiable, ExpressibleByIntegerLiteral {
    var id: Int
    var title = ""

    init(id: Int, title: String) {
      (self.id, self.title) = (id, title)
    }

    init(integerLiteral id: Int) {
      self.id = id
    }
  }

  /// Pages of numbers: the first for `nil`, then one per token; records what was asked for.
  private final class Pages: Sendable {
    let second = PageToken("page 2")
    let third = PageToken("page 3")
    let requested = Locked<[PageToken?]>([])
    let failures = Locked<[DomainError]>([])

    var first: ListPage<Row> { ListPage(items: [1, 2], next: second) }
    var secondPage: ListPage<Row> { ListPage(items: [3, 4], next: third) }
    var lastPage: ListPage<Row> { ListPage(items: [5], next: nil) }

    func load(_ token: PageToken?) -> OutcomeStream<ListPage<Row>, DomainError> {
      requested.withLock { $0.append(token) }
      let failure = failures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      let page = token == nil ? first : token == second ? secondPage : lastPage
      return .outcome { () async throws(DomainError) in
        if let failure { throw failure }
        return page
      }
    }

    func feature() -> PagedListFeature<Row> {
      PagedListFeature { [self] token in load(token) }
    }
  }

  /// A store whose list appeared and received the first page, each step asserted; `feature`
  /// reads `pages` unless a test gives one of its own.
  private static func storeShowingFirstPage(
    of pages: Pages, feature: PagedListFeature<Row>? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> TestStore<PagedListFeature<Row>> {
    let store = TestStore(feature ?? pages.feature(), initialState: .init())
    store.send(.appeared, { $0.phase = .loading }, sourceLocation: sourceLocation)
    await store.receive(
      {
        $0.items = [1, 2]
        $0.next = pages.second
        $0.phase = .loaded
      }, sourceLocation: sourceLocation)
    return store
  }

  @Test(
    "load more tapped as a page shows, while the load that brought it is still ending, loads the next page")
  func loadMoreAsThePageShows() async {
    // An endless list asks for more as soon as its last row shows, which can be before the load
    // that brought the row has ended. Here that load ends only when the test says.
    let ending = AsyncStream<Void>.makeStream()
    let pages = Pages()
    let feature = PagedListFeature<Row> { [pages] token in
      guard token == nil else { return pages.load(token) }
      return .outcomes { sink in
        sink.yield(pages.first)
        for await _ in ending.stream {}
      }
    }
    let store = TestStore(feature, initialState: .init())
    store.send(.appeared) { $0.phase = .loading }
    await store.receive {
      $0.items = [1, 2]
      $0.next = pages.second
      $0.phase = .loaded
    }
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    ending.continuation.finish()
    await store.receive {
      $0.items = [1, 2, 3, 4]
      $0.next = pages.third
      $0.isLoadingMore = false
    }
    await store.finish()
    #expect(pages.requested.withLock { $0 } == [pages.second])
  }

  @Test("appearing loads the first page; load more appends each next page until the end, then does nothing")
  func pagesUntilTheEnd() async {
    let pages = Pages()
    let store = await Self.storeShowingFirstPage(of: pages)
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.items = [1, 2, 3, 4]
      $0.next = pages.third
      $0.isLoadingMore = false
    }
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.items = [1, 2, 3, 4, 5]
      $0.next = nil
      $0.isLoadingMore = false
    }
    #expect(store.state.hasReachedEnd)
    store.send(.loadMoreTapped)
    store.send(.appeared)
    await store.finish()
    #expect(pages.requested.withLock { $0 } == [nil, pages.second, pages.third])
  }

  @Test("a failed load more keeps the list and its place: the next tap asks for the same page")
  func failedLoadMoreKeepsItsPlace() async {
    let pages = Pages()
    let store = await Self.storeShowingFirstPage(of: pages)
    pages.failures.withLock { $0 = [.offline] }
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.isLoadingMore = false
      $0.message = DomainError.offline.message
    }
    store.send(.loadMoreTapped) {
      $0.isLoadingMore = true
      $0.message = nil
    }
    await store.receive {
      $0.items = [1, 2, 3, 4]
      $0.next = pages.third
      $0.isLoadingMore = false
    }
    await store.finish()
    #expect(pages.requested.withLock { $0 } == [nil, pages.second, pages.second])
  }

  @Test(
    "refresh starts again from the first page and replaces the list; a failed refresh keeps what was shown")
  func refreshStartsAgain() async {
    let pages = Pages()
    let store = await Self.storeShowingFirstPage(of: pages)
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.items = [1, 2, 3, 4]
      $0.next = pages.third
      $0.isLoadingMore = false
    }
    pages.failures.withLock { $0 = [.timeout] }
    store.send(.refreshTapped) { $0.phase = .loading }
    await store.receive { $0.phase = .loadFailed(message: DomainError.timeout.message) }
    #expect(store.state.items == [1, 2, 3, 4])
    store.send(.refreshTapped) { $0.phase = .loading }
    await store.receive {
      $0.items = [1, 2]
      $0.next = pages.second
      $0.phase = .loaded
    }
    await store.finish()
    #expect(pages.requested.withLock { $0 } == [nil, pages.second, nil, nil])
  }

  @Test(
    "an item the next page repeats is shown once, in its newer copy and its first place, as paging by offset repeats one"
  )
  func repeatedItemShownOnce() async {
    let second = PageToken("page 2")
    // A row was added before row 2 after the first page was read, so the second page, read by
    // offset, starts with row 2 again, renamed since.
    let feature = PagedListFeature<Row> { token in
      .outcome { () async throws(DomainError) in
        token == nil
          ? ListPage(items: [1, 2], next: second)
          : ListPage(items: [Row(id: 2, title: "renamed"), 3], next: nil)
      }
    }
    let store = TestStore(feature, initialState: .init())
    store.send(.appeared) { $0.phase = .loading }
    await store.receive {
      $0.items = [1, 2]
      $0.next = second
      $0.phase = .loaded
    }
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.items = [1, Row(id: 2, title: "renamed"), 3]
      $0.next = nil
      $0.isLoadingMore = false
    }
    await store.finish()
  }

  @Test(
    "an item a page holds twice is shown once, in its first place, as a join gone wrong on a server sends it")
  func itemTwiceInOnePageShownOnce() async {
    let second = PageToken("page 2")
    let feature = PagedListFeature<Row> { token in
      .outcome { () async throws(DomainError) in
        token == nil
          ? ListPage(items: [1, 2, 1, 3], next: second)
          : ListPage(items: [4, 5, 4], next: nil)
      }
    }
    let store = TestStore(feature, initialState: .init())
    store.send(.appeared) { $0.phase = .loading }
    await store.receive {
      $0.items = [1, 2, 3]
      $0.next = second
      $0.phase = .loaded
    }
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.items = [1, 2, 3, 4, 5]
      $0.next = nil
      $0.isLoadingMore = false
    }
    await store.finish()
  }
  @Test(
    "a next page that brings no item not already shown ends the list, as a server that ignores the offset would send the first page forever"
  )
  func pageOfRepeatsEndsTheList() async {
    let pages = Pages()
    // Every page after the first answers the first page's rows again, with a next page.
    let feature = PagedListFeature<Row> { token in
      pages.requested.withLock { $0.append(token) }
      return .outcome { () async throws(DomainError) in
        ListPage(items: [1, 2], next: token == nil ? pages.second : pages.third)
      }
    }
    let store = await Self.storeShowingFirstPage(of: pages, feature: feature)
    store.send(.loadMoreTapped) { $0.isLoadingMore = true }
    await store.receive {
      $0.next = nil
      $0.isLoadingMore = false
    }
    store.send(.loadMoreTapped)
    await store.finish()
    #expect(store.state.hasReachedEnd)
    #expect(pages.requested.withLock { $0 } == [nil, pages.second])
  }
}
