import Foundation
import NetworkLayer
import Testing

@Suite("Building requests")
struct EndpointURLRequestTests {
  private func url(base: String, path: [String], query: [URLQueryItem] = []) throws -> String {
    let baseURL = try #require(URL(string: base))
    let endpoint = Endpoint<[Int]>(path: path, query: query)
    return try #require(try endpoint.urlRequest(relativeTo: baseURL).url?.absoluteString)
  }

  @Test(
    "the base URL's own path is kept, with exactly one slash between parts",
    arguments: [
      ("https://api.example.com", ["todos"], "https://api.example.com/todos"),
      ("https://api.example.com/", ["todos"], "https://api.example.com/todos"),
      ("https://api.example.com/v1", ["todos"], "https://api.example.com/v1/todos"),
      ("https://api.example.com/v1/", ["todos", "7"], "https://api.example.com/v1/todos/7"),
      ("https://api.example.com/v1//", ["todos"], "https://api.example.com/v1/todos"),
      ("http://127.0.0.1:8080/api", [], "http://127.0.0.1:8080/api"),
      ("http://127.0.0.1:8080", [], "http://127.0.0.1:8080/"),
    ]
  )
  func joining(base: String, path: [String], expected: String) throws {
    #expect(try url(base: base, path: path) == expected)
  }

  @Test(
    "a path that ends with a slash is sent with one, and a base URL's own is kept when the endpoint adds no segment",
    arguments: [
      ("https://h.example/api", ["token"], true, [], "https://h.example/api/token/"),
      ("https://h.example/api/", [], false, [], "https://h.example/api/"),
      ("https://h.example/api//", [], false, [], "https://h.example/api/"),
      ("https://h.example/api", [], true, [], "https://h.example/api/"),
      ("https://h.example/api/", ["todos"], false, [], "https://h.example/api/todos"),
      ("https://h.example", ["a/b"], true, [], "https://h.example/a%2Fb/"),
      (
        "https://h.example/api", ["todos"], true, [URLQueryItem(name: "page", value: "2")],
        "https://h.example/api/todos/?page=2"
      ),
    ]
  )
  func trailingSlash(
    base: String, path: [String], endsWithSlash: Bool, query: [URLQueryItem], expected: String
  )
    throws
  {
    let baseURL = try #require(URL(string: base))
    var endpoint = Endpoint<[Int]>(path: path, query: query)
    endpoint.endsWithSlash = endsWithSlash
    #expect(try endpoint.urlRequest(relativeTo: baseURL).url?.absoluteString == expected)
  }

  @Test(
    "a path value is encoded as exactly one segment, whatever it holds",
    arguments: [
      ("../admin", "https://h.example/v1/todos/..%2Fadmin"),
      ("a/b", "https://h.example/v1/todos/a%2Fb"),
      ("?x=1", "https://h.example/v1/todos/%3Fx%3D1"),
      ("#frag", "https://h.example/v1/todos/%23frag"),
      ("with space", "https://h.example/v1/todos/with%20space"),
      ("..", "https://h.example/v1/todos/%2E%2E"),
      (".", "https://h.example/v1/todos/%2E"),
      // RFC 3986 lets a segment hold `:` and `@`; the other characters it allows are encoded.
      ("batch:run", "https://h.example/v1/todos/batch:run"),
      ("ada@example.com", "https://h.example/v1/todos/ada@example.com"),
      ("a;b=c,d+e!$&'()*", "https://h.example/v1/todos/a%3Bb%3Dc%2Cd%2Be%21%24%26%27%28%29%2A"),
    ]
  )
  func pathSegments(value: String, expected: String) throws {
    #expect(try url(base: "https://h.example/v1", path: ["todos", value]) == expected)
  }

  @Test(
    "a relative link is read from the endpoint's own URL, and one that leaves its origin is not followed",
    arguments: [
      ("?page=2", "https://h.example/v1/todos/?page=2"),
      ("/v1/todos/?page=3", "https://h.example/v1/todos/?page=3"),
      ("archived/?page=2", "https://h.example/v1/todos/archived/?page=2"),
      ("//elsewhere.example/v1/todos/?page=2", nil),
    ]
  )
  func relativeLink(link: String, expected: String?) throws {
    let base = try #require(URL(string: "https://h.example/v1"))
    let endpoint = Endpoint<[Int]>(path: ["todos"]).endingWithSlash().following(
      try #require(URL(string: link)))
    guard let expected else {
      #expect(throws: NetworkError.invalidURL("a link to another origin is not followed")) {
        try endpoint.urlRequest(relativeTo: base)
      }
      return
    }
    #expect(try endpoint.urlRequest(relativeTo: base).url?.absoluteString == expected)
  }

  @Test(
    "query names and values round-trip exactly, reserved characters included",
    arguments: [
      "a+b", "a&b=c", "100%", "#tag", "why?", "two words", "crème brûlée", "日本", "emoji 🚀", "/slash",
    ]
  )
  func queryRoundTrip(value: String) throws {
    let text = try url(
      base: "https://h.example", path: ["search"], query: [URLQueryItem(name: "q&", value: value)])
    let components = try #require(URLComponents(string: text))
    #expect(components.queryItems == [URLQueryItem(name: "q&", value: value)])
    #expect(
      !(components.percentEncodedQuery ?? "").contains("+"),
      "a literal + would be read as a space by many servers")
  }

  @Test(
    "a base URL that is not absolute http(s) is an invalid URL",
    arguments: ["ftp://h.example", "/relative", "mailto:a@b.c"])
  func invalidBase(base: String) throws {
    let baseURL = try #require(URL(string: base))
    #expect(throws: NetworkError.self) {
      try Endpoint<[Int]>(path: ["todos"]).urlRequest(relativeTo: baseURL)
    }
  }

  @Test("an empty path segment is an invalid URL rather than a silent double slash")
  func emptySegment() throws {
    let baseURL = try #require(URL(string: "https://h.example"))
    #expect(throws: NetworkError.invalidURL("empty path segment")) {
      try Endpoint<[Int]>(path: ["todos", "", "1"]).urlRequest(relativeTo: baseURL)
    }
  }

  @Test("an empty last path segment is an invalid URL whose description names the trailing slash's way")
  func emptyLastSegment() throws {
    let baseURL = try #require(URL(string: "https://h.example"))
    let endpoint = Endpoint<[Int]>(method: .post, path: ["o", "token", ""])
    let error = #expect(throws: NetworkError.self) { try endpoint.urlRequest(relativeTo: baseURL) }
    #expect(
      error?.description
        == "invalid URL: empty last path segment: a path that ends with a slash is endingWithSlash()")
    var slashed = endpoint.endingWithSlash()
    slashed.request.path = ["o", "token"]
    #expect(try slashed.urlRequest(relativeTo: baseURL).url?.absoluteString == "https://h.example/o/token/")
  }

  @Test(
    "a header that could split the header block is rejected before sending",
    arguments: [
      ("X-Note", "a\r\nInjected: yes"), ("X-Note", "a\nb"), ("X-Note", "a\rb"), ("Bad Name", "v"),
      ("X:Y", "v"),
    ]
  )
  func headerInjection(name: String, value: String) throws {
    let baseURL = try #require(URL(string: "https://h.example"))
    let endpoint = Endpoint<[Int]>(path: ["todos"], headers: [name: value])
    #expect {
      try endpoint.urlRequest(relativeTo: baseURL)
    } throws: { error in
      guard case .invalidRequest(let detail) = error as? NetworkError else { return false }
      return !detail.contains("Injected")
    }
  }

  @Test(
    "Accept, and a body's Content-Type, in Endpoint.headers are refused whatever their case",
    arguments: ["Accept", "accept", "ACCEPT", "Content-Type", "content-type", "CONTENT-type"]
  )
  func reservedHeaders(name: String) throws {
    let baseURL = try #require(URL(string: "https://h.example"))
    let endpoint = Endpoint<[Int]>(
      method: .post, path: ["todos"], headers: [name: "text/plain"],
      body: .data(Data("x".utf8), contentType: "application/json"))
    #expect {
      try endpoint.urlRequest(relativeTo: baseURL)
    } throws: { error in
      guard case .invalidRequest = error as? NetworkError else { return false }
      return true
    }
  }

  @Test("method, Accept and a JSON body's Content-Type are set from the endpoint")
  func headersAndBody() throws {
    let baseURL = try #require(URL(string: "https://h.example"))
    let body = Data(#"{"title":"x"}"#.utf8)
    let endpoint = Endpoint<[Int]>(
      method: .post, path: ["todos"], body: .data(body, contentType: "application/json"))
    let request = try endpoint.urlRequest(relativeTo: baseURL)
    #expect(request.httpMethod == "POST")
    #expect(request.value(forHTTPHeaderField: "Accept") == "application/json")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    #expect(request.httpBody == body)
  }
}
