import DataLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Paginated lists: page numbers, cursors and Link headers, read page by page")
struct PagedListTests {
  private struct Item: Decodable, Sendable, Equatable {
    var id: Int
  }

  /// Serves items 1…5, two a page, in the shape `answer` gives for a page number; records every
  /// request line it gets.
  private final class PagingServer: Sendable {
    let lines = Locked<[String]>([])
    let transport: InProcessTransport

    init(
      answer:
        @escaping @Sendable (_ page: Int, _ items: String, _ base: String) -> (body: String, link: String?)
    ) {
      let lines = self.lines
      let box = Locked<String>("")
      transport = InProcessTransport(
        StubHandler { request in
          let line =
            request.method + " " + request.percentEncodedPath
            + (request.query.isEmpty
              ? "" : "?" + request.query.map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&"))
          lines.withLock { $0.append(line) }
          let page =
            Int(request.queryValue("page") ?? "") ?? request.queryValue("cursor").flatMap {
              Int($0.drop { !$0.isNumber })
            } ?? 1
          let ids = (1...5).filter { ($0 - 1) / 2 + 1 == page }
          let items = "[" + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
          let (body, link) = answer(page, items, box.withLock { $0 })
          var headers = ["Content-Type": "application/json"]
          headers["Link"] = link
          return .respond(InProcessResponse(status: 200, headers: headers, body: Data(body.utf8)))
        })
      box.withLock { $0 = transport.baseURL.absoluteString }
    }

    var client: URLSessionHTTPClient {
      URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
    }
  }

  /// Every item of every page, following each page's next; a list that never ends is an issue
  /// after ten pages.
  private static func all<Item>(from first: Endpoint<Page<Item>>, with client: URLSessionHTTPClient)
    async throws -> [Item]
  {
    var items: [Item] = []
    var next: Endpoint<Page<Item>>? = first
    for _ in 0..<10 {
      guard let request = next else { return items }
      let page = try await client.send(request)
      items += page.items
      next = page.next
    }
    Issue.record("the list has more than ten pages")
    return items
  }

  @Test("a body's absolute next URL is followed to the last page, as the server's request lines show")
  func resultsWithNextURL() async throws {
    let server = PagingServer { page, items, base in
      let next = page < 3 ? #""\#(base)/api/todos/?page=\#(page + 1)""# : "null"
      return (#"{"count":5,"next":\#(next),"previous":null,"results":\#(items)}"#, nil)
    }
    let first = Endpoint<[Item]>(path: ["api", "todos"]).endingWithSlash().paged(.results())
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      server.lines.withLock { $0 } == ["GET /api/todos/", "GET /api/todos/?page=2", "GET /api/todos/?page=3"])
  }

  @Test("a next URL on another origin is not followed: nothing more is sent")
  func nextOnAnotherOriginIsRefused() async throws {
    let server = PagingServer { _, items, _ in
      (#"{"next":"https://elsewhere.example/api/todos/?page=2","results":\#(items)}"#, nil)
    }
    let page = try await server.client.send(Endpoint<[Item]>(path: ["todos"]).paged(.results()))
    let next = try #require(page.next)
    await #expect(throws: NetworkError.invalidURL("a link to another origin is not followed")) {
      try await server.client.send(next)
    }
    #expect(server.lines.withLock { $0 } == ["GET /todos"])
  }

  @Test(
    "an http next URL on an https API's own host is followed over https, as a server behind a TLS proxy writes it"
  )
  func plainNextOnTheAPIsHostGoesOverHTTPS() async throws {
    let server = PagingServer { page, items, base in
      // `base` is the server's http URL, which the app reaches over https.
      (#"{"next":\#(page < 2 ? #""\#(base)/api/todos/?page=2""# : "null"),"results":\#(items)}"#, nil)
    }
    let api = try #require(URL(string: "https://" + (server.transport.baseURL.host ?? "")))
    let recording = RecordingTransport(server.transport)
    let client = URLSessionHTTPClient(baseURL: api, transport: recording)
    let first = Endpoint<[Item]>(path: ["api", "todos"]).endingWithSlash().paged(.results())
    #expect(try await Self.all(from: first, with: client).map(\.id) == [1, 2, 3, 4])

    let host = try #require(api.host)
    #expect(
      recording.urls.withLock { $0 } == ["https://\(host)/api/todos/", "https://\(host)/api/todos/?page=2"])
    #expect(server.lines.withLock { $0 } == ["GET /api/todos/", "GET /api/todos/?page=2"])
  }

  @Test("a cursor is sent back as its query item, next to the list's own query")
  func cursor() async throws {
    let server = PagingServer { page, items, _ in
      (#"{"data":\#(items),"next_cursor":\#(page < 3 ? #""c\#(page + 1)""# : "null")}"#, nil)
    }
    let first = Endpoint<[Item]>(path: ["todos"], query: [URLQueryItem(name: "limit", value: "2")]).paged(
      .cursor())
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      server.lines.withLock { $0 } == [
        "GET /todos?limit=2", "GET /todos?limit=2&cursor=c2", "GET /todos?limit=2&cursor=c3",
      ])
  }

  @Test("a cursor written as a number is sent back as its digits, and an empty one ends the list")
  func numericAndEmptyCursors() async throws {
    // Twitter's v1.1 cursors are numbers; Slack ends a list with an empty `next_cursor`.
    let server = PagingServer { page, items, _ in
      let cursor = page < 3 ? String(page + 1) : #""""#
      return (#"{"data":\#(items),"next_cursor":\#(cursor)}"#, nil)
    }
    let first = Endpoint<[Item]>(path: ["todos"]).paged(.cursor())
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(server.lines.withLock { $0 } == ["GET /todos", "GET /todos?cursor=2", "GET /todos?cursor=3"])
  }

  @Test("a dotted name reads a nested field: JSON:API's links.next, Slack's cursor, HAL's items and link")
  func nestedMarkers() async throws {
    let resources = PagingServer { page, items, base in
      let next = page < 3 ? #""\#(base)/articles?page=\#(page + 1)""# : "null"
      return (#"{"data":\#(items),"links":{"self":"x","next":\#(next)},"meta":{"total":5}}"#, nil)
    }
    let articles = Endpoint<[Item]>(path: ["articles"]).paged(.results(items: "data", next: "links.next"))
    #expect(try await Self.all(from: articles, with: resources.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      resources.lines.withLock { $0 } == ["GET /articles", "GET /articles?page=2", "GET /articles?page=3"])

    let slack = PagingServer { page, items, _ in
      let cursor = page < 2 ? #""c\#(page + 1)""# : #""""#
      return (#"{"ok":true,"members":\#(items),"response_metadata":{"next_cursor":\#(cursor)}}"#, nil)
    }
    let members = Endpoint<[Item]>(path: ["users.list"]).paged(
      .cursor(items: "members", cursor: "response_metadata.next_cursor"))
    #expect(try await Self.all(from: members, with: slack.client).map(\.id) == [1, 2, 3, 4])
    #expect(slack.lines.withLock { $0 } == ["GET /users.list", "GET /users.list?cursor=c2"])

    // Spring Data REST's HAL: the items and the link both nested, the last page without `next`.
    let hal = PagingServer { page, items, base in
      let next = page < 3 ? #","next":{"href":"\#(base)/todos?page=\#(page + 1)"}"# : ""
      return (#"{"_embedded":{"todos":\#(items)},"_links":{"self":{"href":"x"}\#(next)}}"#, nil)
    }
    let todos = Endpoint<[Item]>(path: ["todos"]).paged(
      .results(items: "_embedded.todos", next: "_links.next.href"))
    #expect(try await Self.all(from: todos, with: hal.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(hal.lines.withLock { $0 } == ["GET /todos", "GET /todos?page=2", "GET /todos?page=3"])
  }

  @Test("a nested marker that is missing or null ends the list; missing items are a decoding failure")
  func nestedMarkerAbsent() async throws {
    let server = PagingServer { page, items, _ in
      (page == 1 ? #"{"data":\#(items),"links":null}"# : #"{"links":{}}"#, nil)
    }
    let page = try await server.client.send(
      Endpoint<[Item]>(path: ["articles"]).paged(.results(items: "data", next: "links.next")))
    #expect(page.items.map(\.id) == [1, 2])
    #expect(page.next == nil)

    let second = Endpoint<[Item]>(path: ["articles"], query: [URLQueryItem(name: "page", value: "2")])
    await #expect(throws: NetworkError.self) {
      try await server.client.send(second.paged(.results(items: "data", next: "links.next")))
    }
    #expect(server.lines.withLock { $0 } == ["GET /articles", "GET /articles?page=2"])
  }

  @Test("a next page that is the page just read ends the list: a repeated cursor or link is not followed")
  func nextPageThatIsTheSamePage() async throws {
    let cursors = PagingServer { _, items, _ in (#"{"data":\#(items),"next_cursor":"c2"}"#, nil) }
    let first = Endpoint<[Item]>(path: ["todos"]).paged(.cursor())
    #expect(try await Self.all(from: first, with: cursors.client).map(\.id) == [1, 2, 3, 4])
    #expect(cursors.lines.withLock { $0 } == ["GET /todos", "GET /todos?cursor=c2"])

    let links = PagingServer { _, items, _ in (items, #"</todos?page=2>; rel="next""#) }
    let linked = Endpoint<[Item]>(path: ["todos"]).paged(.linkHeader)
    #expect(try await Self.all(from: linked, with: links.client).map(\.id) == [1, 2, 3, 4])
    #expect(links.lines.withLock { $0 } == ["GET /todos", "GET /todos?page=2"])
  }

  @Test("a server that goes round two pages is followed once round: a page already read ends the list")
  func twoPagesInACircle() async throws {
    // Page 3 names page 2 as its next, as a cursor implementation with an off-by-one does.
    let links = PagingServer { page, items, _ in
      (items, #"</todos?page=\#(page == 3 ? 2 : page + 1)>; rel="next""#)
    }
    let linked = Endpoint<[Item]>(path: ["todos"]).paged(.linkHeader)
    #expect(try await Self.all(from: linked, with: links.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(links.lines.withLock { $0 } == ["GET /todos", "GET /todos?page=2", "GET /todos?page=3"])

    let cursors = PagingServer { page, items, _ in
      (#"{"data":\#(items),"next_cursor":"c\#(page == 3 ? 2 : page + 1)"}"#, nil)
    }
    let first = Endpoint<[Item]>(path: ["todos"]).paged(.cursor())
    #expect(try await Self.all(from: first, with: cursors.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(cursors.lines.withLock { $0 } == ["GET /todos", "GET /todos?cursor=c2", "GET /todos?cursor=c3"])
  }

  /// A GraphQL query for a connection's page after `after`, as Relay-style APIs take it.
  private struct ConnectionQuery: Encodable, Sendable {
    struct Variables: Encodable, Sendable {
      var first = 2
      var after: String?
    }
    var query = "query($first: Int!, $after: String) { todos(first: $first, after: $after) { nodes { id } } }"
    var variables: Variables
  }

  /// A Relay-style connection's answer: `data.todos.nodes` and `data.todos.pageInfo`.
  private struct ConnectionAnswer: Decodable, Sendable {
    struct PageInfo: Decodable, Sendable {
      var endCursor: String?
      var hasNextPage: Bool
    }
    struct Todos: Decodable, Sendable {
      var nodes: [Item]
      var pageInfo: PageInfo
    }
    struct Payload: Decodable, Sendable {
      var todos: Todos
    }
    var data: Payload
  }

  /// The page after `cursor`, whose next page is the same query with the new cursor in its body.
  private static func connectionPage(after cursor: String?) -> Endpoint<Page<Item>> {
    let query = ConnectionQuery(variables: .init(after: cursor))
    return Endpoint<ConnectionAnswer>(
      method: .post, path: ["graphql"], body: .json(query), isIdempotent: true
    )
    .map { answer in
      let todos = answer.data.todos
      let next = todos.pageInfo.hasNextPage ? todos.pageInfo.endCursor.map(connectionPage(after:)) : nil
      return Page(items: todos.nodes, next: next)
    }
  }

  @Test("a next page that differs in its body, as GraphQL's cursors do, is a Page the app builds itself")
  func cursorInTheBody() async throws {
    let afters = Locked<[String]>([])
    let transport = InProcessTransport(
      StubHandler { request in
        let variables = (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any])?[
          "variables"]
        let after = (variables as? [String: Any])?["after"] as? String
        afters.withLock { $0.append(request.method + " " + request.path + " after=" + (after ?? "nil")) }
        let page = after.flatMap { Int($0.dropFirst()) } ?? 1
        let ids = (1...5).filter { ($0 - 1) / 2 + 1 == page }
        let nodes = ids.map { #"{"id":\#($0)}"# }.joined(separator: ",")
        let info =
          page < 3
          ? #"{"endCursor":"c\#(page + 1)","hasNextPage":true}"# : #"{"endCursor":null,"hasNextPage":false}"#
        let body = #"{"data":{"todos":{"nodes":[\#(nodes)],"pageInfo":\#(info)}}}"#
        return .respond(
          InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        )
      })
    let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)

    #expect(
      try await Self.all(from: Self.connectionPage(after: nil), with: client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      afters.withLock { $0 } == [
        "POST /graphql after=nil", "POST /graphql after=c2", "POST /graphql after=c3",
      ])
  }

  @Test("an empty next URL ends the list, as a null one does")
  func emptyNextURL() async throws {
    let server = PagingServer { page, items, base in
      let next = page < 2 ? #""\#(base)/todos?page=\#(page + 1)""# : #""""#
      return (#"{"next":\#(next),"results":\#(items)}"#, nil)
    }
    let first = Endpoint<[Item]>(path: ["todos"]).paged(.results())
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4])
    #expect(server.lines.withLock { $0 } == ["GET /todos", "GET /todos?page=2"])
  }

  /// A page that says which number it is and how many there are, as TMDB's and Laravel's do.
  private struct NumberedPage: Decodable, Sendable {
    var page: Int
    var totalPages: Int
    var results: [Item]

    enum CodingKeys: String, CodingKey {
      case page, results
      case totalPages = "total_pages"
    }
  }

  @Test("a shape the app writes, a page number and a page count in the body, asks for each page by number")
  func pageNumbersOfTheAppsOwnShape() async throws {
    let server = PagingServer { page, items, _ in
      (#"{"page":\#(page),"total_pages":3,"results":\#(items)}"#, nil)
    }
    let numbered = PageShape<Item> { list in
      list.decoding(as: NumberedPage.self).map { page in
        let next = URLQueryItem(name: "page", value: String(page.page + 1))
        return PageShape.Contents(
          items: page.results, next: page.page < page.totalPages ? .query([next]) : nil)
      }
    }
    let first = Endpoint<[Item]>(path: ["movies"], query: [URLQueryItem(name: "page", value: "1")]).paged(
      numbered)
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      server.lines.withLock { $0 } == ["GET /movies?page=1", "GET /movies?page=2", "GET /movies?page=3"])
  }

  @Test(
    "offsets ask for each page by how many items came before it, until an empty page, past a server's own cap on the limit"
  )
  func offsets() async throws {
    // FastAPI's tutorial pages a bare array by `skip` and `limit`; this server caps `limit` at 2.
    let lines = Locked<[String]>([])
    let transport = InProcessTransport(
      StubHandler { request in
        let skip = Int(request.queryValue("skip") ?? "0") ?? 0
        let limit = min(Int(request.queryValue("limit") ?? "") ?? 2, 2)
        lines.withLock {
          $0.append(request.percentEncodedPath + " skip=\(request.queryValue("skip") ?? "-")")
        }
        let ids = Array((1...5).dropFirst(skip).prefix(limit))
        let body = "[" + ids.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]"
        return .respond(
          InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        )
      })
    let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
    let first = Endpoint<[Item]>(path: ["todos"], query: [URLQueryItem(name: "limit", value: "20")]).paged(
      .offset(parameter: "skip"))

    #expect(try await Self.all(from: first, with: client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      lines.withLock { $0 } == [
        "/todos skip=-", "/todos skip=2", "/todos skip=4", "/todos skip=5",
      ])
  }

  @Test("a Link header's rel=next is followed, absolute or relative to the page")
  func linkHeader() async throws {
    let server = PagingServer { page, items, base in
      switch page {
      case 1: (items, #"<\#(base)/todos?page=2>; rel="next", <\#(base)/todos?page=3>; rel="last""#)
      case 2: (items, #"</todos?page=1>; rel="prev", </todos?page=3>; rel=next"#)
      default: (items, #"</todos?page=1>; rel="first""#)
      }
    }
    let first = Endpoint<[Item]>(path: ["todos"]).paged(.linkHeader)
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(server.lines.withLock { $0 } == ["GET /todos", "GET /todos?page=2", "GET /todos?page=3"])
  }

  @Test("a Link header is read by its grammar: commas in a URL or in a quoted parameter split no link")
  func linkHeaderWithCommas() async throws {
    // Spring Data writes its sort order with a comma; `title` may quote commas, semicolons and
    // escaped quotes. A link without its angle brackets is skipped, not followed.
    let server = PagingServer { page, items, base in
      switch page {
      case 1:
        (
          items,
          #"/todos?page=9; rel="next", <\#(base)/todos?sort=id,asc&page=2>; rel="next"; title="Next, then; more", "#
            + #"<\#(base)/todos?sort=id,asc&page=3>; rel="last""#
        )
      case 2:
        (
          items,
          #"</todos?sort=id,asc&page=1>; rel="prev"; title="a \"rel=next\", here","#
            + #"</todos?sort=id,asc&page=3>;title=",";REL="last next""#
        )
      default: (items, #"</todos?sort=id,asc&page=1>; rel="first""#)
      }
    }
    let first = Endpoint<[Item]>(path: ["todos"], query: [URLQueryItem(name: "sort", value: "id,asc")])
      .paged(.linkHeader)
    #expect(try await Self.all(from: first, with: server.client).map(\.id) == [1, 2, 3, 4, 5])
    #expect(
      server.lines.withLock { $0 } == [
        "GET /todos?sort=id,asc", "GET /todos?sort=id,asc&page=2", "GET /todos?sort=id,asc&page=3",
      ])
  }
}

/// A transport that notes the URL of every request it hands on: the scheme a request leaves with.
private struct RecordingTransport: HTTPTransport {
  let urls = Locked<[String]>([])
  let next: InProcessTransport

  init(_ next: InProcessTransport) {
    self.next = next
  }

  func send(_ request: URLRequest) async throws(NetworkError) -> (Data, HTTPURLResponse) {
    urls.withLock { $0.append(request.url?.absoluteString ?? "") }
    return try await next.send(request)
  }
}
