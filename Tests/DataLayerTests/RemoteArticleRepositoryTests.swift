import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("RemoteArticleRepository")
struct RemoteArticleRepositoryTests {
  @Test(
    "today's article loads without signing in, with its date parsed", arguments: SampleBackendKind.allCases)
  func loads(kind: SampleBackendKind) async throws {
    try await kind.with { connection in
      let article = try await Result.of { () async throws(DomainError) in
        try await DataStack(connection).articles.todaysArticle()
      }.get()
      #expect(article.id == 1)
      #expect(article.title == "Streams that outlive their errors")
      #expect(article.publishedAt == Date(timeIntervalSince1970: 1_795_248_000))
    }
  }

  @Test("an article whose date is not ISO 8601 is invalid data")
  func badDate() async {
    let mount = StubHandler.transport(
      status: 200, body: #"{"id":1,"title":"t","body":"b","publishedAt":"yesterday"}"#)
    let repository = RemoteArticleRepository(
      client: URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    )
    guard
      case .failure(.invalidData) = await Result.of({ () async throws(DomainError) in
        try await repository.todaysArticle()
      })
    else {
      Issue.record("expected invalid data")
      return
    }
  }
}
