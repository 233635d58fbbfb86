public import DomainLayer
public import Foundation
public import NetworkLayer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One page of a list, and the request for the page after it.
///
/// `Endpoint.paged(_:)` makes pages for the shapes ``PageShape`` describes. Where the next page
/// differs in more than its URL or query (a GraphQL cursor in the body), an endpoint's `map`
/// builds the page itself, its `next` the same request with the new body.
public struct Page<Item: Sendable>: Sendable {
  /// The page's items, in the server's order.
  public var items: [Item]
  /// Held in a closure: an endpoint's type holds its response type, so a page cannot hold the
  /// next page's endpoint directly.
  private let nextRequest: (@Sendable () -> Endpoint<Page<Item>>)?

  /// Creates a page.
  public init(items: [Item], next: Endpoint<Page<Item>>?) {
    self.items = items
    if let next {
      self.nextRequest = { next }
    } else {
      self.nextRequest = nil
    }
  }

  /// The request for the next page, or `nil` on the last one.
  public var next: Endpoint<Page<Item>>? { nextRequest?() }
}

/// Where a backend says the next page is, as one page's answer tells it.
public enum NextPage: Sendable, Hashable {
  /// A URL to follow (a `next` field, a `Link` header); followed only on the API's origin.
  case link(URL)
  /// The same request with these query items set (a page number, a cursor).
  case query([URLQueryItem])
}

/// How a backend pages a list: how one page's answer gives its items and where the next is.
///
/// Four common shapes are built in: ``results(items:next:)``, a body with the items and the
/// next page's absolute URL (`{"count", "next", "previous", "results"}`);
/// ``cursor(items:cursor:parameter:)``, a body with the items and an opaque cursor;
/// ``offset(parameter:)``, a bare array asked for by how many items came before it; and
/// ``linkHeader``, a bare array with an RFC 8288 `Link: <…>; rel="next"` header. Another is
/// made with ``init(read:)`` from the list endpoint and `Endpoint`'s `decoding(as:decoder:)`
/// and `map(_:)`. The first two name their fields; a dotted name reads a nested one
/// (`links.next`, `response_metadata.next_cursor`), and a marker missing or `null` on the way
/// means the last page.
public struct PageShape<Item: Decodable & Sendable>: Sendable {
  /// What one page says, read by ``read``.
  public struct Contents: Sendable {
    /// The page's items.
    public var items: [Item]
    /// Where the next page is; `nil` on the last page.
    public var next: NextPage?

    /// Creates a page's contents.
    public init(items: [Item], next: NextPage?) {
      self.items = items
      self.next = next
    }
  }

  /// Turns the list's endpoint into one that reads a page's contents.
  public let read: @Sendable (Endpoint<[Item]>) -> Endpoint<Contents>

  /// A shape whose pages `read` reads.
  public init(read: @escaping @Sendable (Endpoint<[Item]>) -> Endpoint<Contents>) {
    self.read = read
  }

  /// A body with the items under `items` and the next page's URL, or `null` or an empty text on
  /// the last page, under `next`; a relative URL is resolved against the page's own.
  public static func results(items: String = "results", next: String = "next") -> Self {
    Self { list in
      let decoder = PageEnvelope<Item>.decoder(PageKeys(items: items, marker: next))
      return list.decoding(as: PageEnvelope<Item>.self, decoder: decoder).map { page, response in
        let link = page.marker.flatMap { URL(string: $0, relativeTo: response.url)?.absoluteURL }
        return Contents(items: page.items, next: link.map(NextPage.link))
      }
    }
  }

  /// A body with the items under `items` and an opaque cursor under `cursor`, sent back as the
  /// query item `parameter`: a text, or a whole number sent as its digits. `null` or an empty
  /// text marks the last page.
  public static func cursor(
    items: String = "data", cursor: String = "next_cursor", parameter: String = "cursor"
  )
    -> Self
  {
    Self { list in
      let decoder = PageEnvelope<Item>.decoder(
        PageKeys(items: items, marker: cursor, markerMayBeNumber: true))
      return list.decoding(as: PageEnvelope<Item>.self, decoder: decoder).map { page in
        let next = page.marker.map { NextPage.query([URLQueryItem(name: parameter, value: $0)]) }
        return Contents(items: page.items, next: next)
      }
    }
  }

  /// A bare array of items, the next page asked for with the query item `parameter` set to how
  /// many items came before it (`?skip=20`); the list's own query carries the limit. The list
  /// ends at the first empty page, so a server that caps the limit below the one asked for still
  /// gives every item.
  public static func offset(parameter: String = "offset") -> Self {
    Self { list in
      let start = list.query.last { $0.name == parameter }?.value.flatMap { Int($0) } ?? 0
      return list.map { items in
        guard !items.isEmpty, start <= Int.max - items.count else { return Contents(items: items, next: nil) }
        let next = URLQueryItem(name: parameter, value: String(start + items.count))
        return Contents(items: items, next: .query([next]))
      }
    }
  }

  /// A bare array of items, with the next page in the `Link` header's `rel="next"` entry. The
  /// header is read by its grammar, so a comma inside a URL or a quoted parameter splits no link.
  public static var linkHeader: Self {
    Self { list in
      list.map { items, response in Contents(items: items, next: nextLink(in: response).map(NextPage.link)) }
    }
  }

  /// The `rel="next"` target of a `Link` header (RFC 8288), resolved against the response's URL.
  static func nextLink(in response: HTTPURLResponse) -> URL? {
    guard let field = response.value(forHTTPHeaderField: "Link"),
      let target = LinkHeader.target(of: "next", in: field)
    else { return nil }
    return URL(string: target, relativeTo: response.url)?.absoluteURL
  }
}

extension Endpoint {
  /// This list endpoint read page by page in `shape`. Each page's ``Page/next`` is this endpoint
  /// again, sent to the next page's link (only on the API's origin) or with its query items set.
  /// A next page that this list has already read (a server repeating its cursor or its link, or
  /// going round two pages) ends the list instead of bringing that page again.
  public func paged<Item>(_ shape: PageShape<Item>) -> Endpoint<Page<Item>> where Response == [Item] {
    paged(shape, after: [])
  }

  private func paged<Item>(_ shape: PageShape<Item>, after read: Set<PageAddress>) -> Endpoint<Page<Item>>
  where Response == [Item] {
    let list = self
    let read = read.union([PageAddress(of: list)])
    return shape.read(list).map { contents in
      let next = contents.next.map { list.next(at: $0) }
      let isRead = next.map { read.contains(PageAddress(of: $0)) } ?? false
      return Page(items: contents.items, next: isRead ? nil : next?.paged(shape, after: read))
    }
  }

  private func next(at page: NextPage) -> Self {
    switch page {
    case .link(let url):
      return following(url)
    case .query(let items):
      var endpoint = self
      endpoint.query = request.query.filter { item in !items.contains { $0.name == item.name } } + items
      return endpoint
    }
  }
}

/// What tells one page's request from another's in a list: its link and its query.
private struct PageAddress: Hashable {
  let link: URL?
  let query: [URLQueryItem]

  init<Response>(of endpoint: Endpoint<Response>) {
    link = endpoint.link
    query = endpoint.query
  }
}

extension HTTPClient {
  /// One page of a list, as a repository hands it to the domain: the page `first` answers for a
  /// `nil` token, else the page the token names (the `next` of the page before), its items
  /// mapped to the domain and its own `next` kept in a `PageToken`.
  ///
  /// - Throws: the `DomainError` of the call, or `DomainError.invalidData(reason:)` for an item
  ///   that breaks an invariant or a token that is not a page of this list.
  public func page<DTO: DomainConvertible>(
    after token: PageToken?, first: Endpoint<Page<DTO>>
  ) async throws(DomainError) -> ListPage<DTO.DomainValue> {
    var request = first
    if let token {
      guard let next = token.value(as: Endpoint<Page<DTO>>.self) else {
        throw .invalidData(reason: "a page token from another list")
      }
      request = next
    }
    let page = try await sendTranslatingErrors(request)
    return ListPage(items: try page.items.toDomain(), next: page.next.map { PageToken($0) })
  }
}
