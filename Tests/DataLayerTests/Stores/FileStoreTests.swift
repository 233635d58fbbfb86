import DataLayer
import Foundation
import Testing

/// A value of an app's own, with an invariant its decoding keeps: a title that is not blank.
struct Draft: Codable, Sendable, Equatable {
  var title: String
  var words: Int

  static let sample = Draft(title: "a draft", words: 2)

  init(title: String, words: Int) {
    self.title = title
    self.words = words
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    title = try container.decode(String.self, forKey: .title)
    words = try container.decode(Int.self, forKey: .words)
    guard title.contains(where: { !$0.isWhitespace }) else {
      throw DecodingError.dataCorruptedError(forKey: .title, in: container, debugDescription: "a blank title")
    }
  }
}

@Suite("FileStore", .timeLimit(.minutes(1)))
struct FileStoreTests {
  @Test("a saved value is served at once and read back by a new store; only its owner can open the file")
  func persistence() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("draft.json")
    let recorder = FailureRecorder()
    let store = FileStore<Draft>(fileURL: url, onFailure: recorder.report)
    #expect(store.value == nil)
    store.save(Draft.sample)
    #expect(store.value == Draft.sample)
    await store.flush()

    #expect(try JSONDecoder().decode(Draft.self, from: Data(contentsOf: url)) == Draft.sample)
    #expect(try posixPermissions(of: url) == 0o600)
    #expect(FileStore<Draft>(fileURL: url).value == Draft.sample)
    #expect(recorder.failures.isEmpty)
  }

  @Test("a file the value's decoding rejects, or not JSON, means no value, is deleted and is reported")
  func rejectedFile() async throws {
    for contents in [#"{"title": "  ", "words": 0}"#, #"{"title": "cut"#] {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let url = directory.file("draft.json")
      try Data(contents.utf8).write(to: url)
      let recorder = FailureRecorder()
      let store = FileStore<Draft>(fileURL: url, onFailure: recorder.report)
      #expect(store.value == nil)
      #expect(recorder.failures.map(\.operation) == [.decode])
      #expect(itemType(at: url) == nil, "the rejected file is deleted")
    }
  }

  @Test("updates from 100 tasks at once are each kept, and clear deletes the file")
  func updatesAndClear() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("draft.json")
    let store = FileStore<Draft>(fileURL: url)
    store.save(Draft(title: "counted", words: 0))
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<100 {
        group.addTask { store.update { $0.map { Draft(title: $0.title, words: $0.words + 1) } } }
      }
    }
    await store.flush()
    #expect(FileStore<Draft>(fileURL: url).value == Draft(title: "counted", words: 100))

    store.clear()
    #expect(store.value == nil)
    await store.flush()
    #expect(itemType(at: url) == nil)
  }
}
