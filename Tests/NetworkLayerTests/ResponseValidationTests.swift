import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

@Suite("Response validation")
struct ResponseValidationTests {
  @Test(
    "every status from 100 to 599 is judged against the default range: 2xx succeed, the rest are bad status")
  func statusTable() async {
    let mount = InProcessTransport(
      StubHandler { request in
        let status = Int(request.path.dropFirst()) ?? 0
        return .respond(
          InProcessResponse(
            status: status, headers: ["Content-Type": "application/json"], body: Data("[]".utf8))
        )
      }
    )
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    // The statuses are independent, so they are asked for side by side.
    let mismatches = await withTaskGroup(of: String?.self) { group in
      for status in 100...599 {
        group.addTask {
          let result = await client.outcome(Endpoint<[TestTodo]>(path: [String(status)]))
          let expected: Result<[TestTodo], NetworkError> =
            (200..<300).contains(status)
            ? .success([]) : .failure(.badStatus(code: status, bodyExcerpt: "[]"))
          return result == expected ? nil : "\(status): \(result)"
        }
      }
      return await group.reduce(into: [String]()) { if let mismatch = $1 { $0.append(mismatch) } }
    }
    #expect(mismatches.isEmpty, "\(mismatches.sorted())")
  }

  @Test("an endpoint can accept statuses outside 2xx")
  func customRange() async throws {
    let mount = StubHandler.transport(status: 304, body: "[]")
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let list = try await client.send(Endpoint<[TestTodo]>(path: ["cached"], acceptableStatusCodes: 200..<400))
    #expect(list.isEmpty)
  }

  @Test("an error body's credential fields are redacted in the bad-status excerpt")
  func excerptRedacted() async {
    let mount = StubHandler.transport(status: 400, body: #"{"error":"bad","refreshToken":"rt-secret"}"#)
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    guard
      case .failure(.badStatus(400, let excerpt?)) = await client.outcome(Endpoint<[TestTodo]>(path: ["x"]))
    else {
      Issue.record("expected bad status 400 with an excerpt")
      return
    }
    #expect(!excerpt.contains("rt-secret"))
    #expect(excerpt.contains("bad"))
  }

  @Test("a raw Data endpoint takes any body, even one that declares no Content-Type")
  func rawDataWithoutType() async throws {
    let mount = StubHandler.transport(status: 200, body: "%PDF-1.7", contentType: nil)
    let client = URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount)
    let data = try await client.send(Endpoint.raw(path: ["report.pdf"]))
    #expect(data == Data("%PDF-1.7".utf8))
    let typed = await client.outcome(Endpoint.raw(path: ["report.pdf"], accept: "application/pdf"))
    #expect(typed == .failure(.unacceptableContentType(received: nil, accepted: "application/pdf")))
  }
}
