import DataLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Texts a hostile server could send, generated from fragments of the grammars the client reads
/// (dates, media types, links, JSON error bodies) mixed with what breaks parsers: combining
/// accents, NULs, line ends, unpaired quotes, cut escapes. The same seed gives the same texts, so
/// a failure repeats.
private struct HostileTexts: Sequence, IteratorProtocol {
  private static let fragments = [
    "<", ">", ";", ",", "\"", "\\", "=", " ", "\t", "\r", "\n", "\u{0}", "\u{301}", "\u{FEFF}", "é", "😀",
    "\u{1F1FA}\u{1F1F8}", "rel", "next", "/", ":", "?", "%", "%2", "%zz", ".", "..", "{", "}", "[", "]",
    "null",
    "1e400", "-1", "0", "GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
    "application/json", "+json", "; charset=utf-8", "*/*", "q=0.5", "<https://api.test/v1/a?page=2>",
    "; rel=\"next\"", "\"message\":", "\"errors\":[", "\"detail\":\"", "\"violations\":[{\"propertyPath\":",
    "\"fieldErrors\":{\"a\":[", "\"password\":\"", "eyJhbGciOiJIUzI1NiJ9", "Bad Request",
  ]

  private var generator: SplitMix64
  private var remaining: Int

  init(count: Int, seed: UInt64) {
    remaining = count
    generator = SplitMix64(seed: seed)
  }

  mutating func next() -> String? {
    guard remaining > 0 else { return nil }
    remaining -= 1
    var text = ""
    for _ in 0..<Int(generator.next() % 24) {
      text += Self.fragments[Int(generator.next() % UInt64(Self.fragments.count))]
    }
    return text
  }
}

@Suite("Text a hostile server sends", .timeLimit(.minutes(1)))
struct HostileTextTests {
  @Test(
    "the readers of headers and error bodies take any text: a Retry-After that is not ASCII is no advice, a sentence is never blank"
  )
  func readersTakeAnyText() {
    let now = Date()
    var problems: [String] = []
    for (index, text) in HostileTexts(count: 3_000, seed: 1).enumerated() {
      let delay = RetryAfter.delay(from: text, now: now)
      if let delay, delay < .zero || !text.utf8.allSatisfy({ $0 < 0x80 }) {
        problems.append("Retry-After \(text.debugDescription) gave \(delay)")
      }
      // The body readers cost most: a third of the texts is enough for them.
      for body in index % 3 == 0 ? [text, "{" + text, "{\"message\":\"" + text + "\"}"] : [] {
        let sentence = NetworkError.badStatus(code: 422, bodyExcerpt: body).serverSentence
        if let sentence, sentence.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
          problems.append("a blank sentence from \(body.debugDescription)")
        }
        _ = Redactor.redact(body: Data(body.utf8))
        _ = Redactor.redact(text: body)
      }
      _ = Redactor.redact(headers: [text: text, "Authorization": text])
      _ = TokenExpiry.jwt(text)
      _ = TokenExpiry.jwt("e30." + Data(text.utf8).base64EncodedString() + ".e30")
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test(
    "a response whose Content-Type and Link are any text is read or refused, and a next page stays on the API's origin"
  )
  func responseHeadersOfAnyText() async throws {
    let list = Endpoint<[Int]>(path: ["items"]).paged(.linkHeader)
    for text in HostileTexts(count: 500, seed: 2) {
      let transport = InProcessTransport(
        StubHandler { _ in
          let headers = ["Content-Type": "application/json" + text, "Link": text]
          return .respond(InProcessResponse(status: 200, headers: headers, body: Data("[1]".utf8)))
        })
      let client = URLSessionHTTPClient(baseURL: transport.baseURL, transport: transport)
      do throws(NetworkError) {
        let page = try await client.send(list)
        #expect(page.items == [1])
        if let next = page.next, let url = try? next.urlRequest(relativeTo: transport.baseURL).url {
          #expect(url.host == transport.baseURL.host, "\(text.debugDescription) led to \(url)")
        }
      } catch {
        guard case .unacceptableContentType = error else {
          Issue.record("\(text.debugDescription): \(error)")
          return
        }
      }
    }
  }
}
