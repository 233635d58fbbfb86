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

  @Test(
    "an ISO 8601 date reads as servers write it: with fractions of a second or an offset",
    arguments: [
      ("2026-11-22T00:00:00Z", 0.0),
      ("2026-11-22T00:00:00.123Z", 0.123),  // Rails, JavaScript's toISOString
      ("2026-11-22T00:00:00.123456Z", 0.123456),  // Django REST framework
      ("2026-11-22T02:00:00+02:00", 0.0),
      ("2026-11-22T01:30:00.5+01:30", 0.5),
    ])
  func datesAsServersWriteThem(published: String, fraction: Double) async throws {
    let body = #"{"id":1,"title":"t","body":"b","publishedAt":"\#(published)"}"#
    let mount = StubHandler.transport(status: 200, body: body)
    let repository = RemoteArticleRepository(
      client: URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    )
    let article = try await Result.of { () async throws(DomainError) in try await repository.todaysArticle() }
      .get()
    let expected = 1_795_305_600 + fraction
    #expect(abs(article.publishedAt.timeIntervalSince1970 - expected) < 0.000_01, "\(article.publishedAt)")
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
