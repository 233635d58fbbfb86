import DataLayer
import Foundation
import NetworkLayer
import Testing

@Suite("FileTokenStore", .timeLimit(.minutes(1)))
struct FileTokenStoreTests {
  /// Every token in these tests contains "secret", so one search finds any leak.
  static func tokens(_ number: Int = 1, padding: Int = 0) -> AuthTokens {
    AuthTokens(
      accessToken: "access-secret-\(number)" + String(repeating: "x", count: padding),
      refreshToken: "refresh-secret-\(number)",
      expiresAt: Date(timeIntervalSince1970: 1_800_000_000.25 + Double(number))
    )
  }

  @Test("a missing file means signed out, and is not a failure")
  func missingFile() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recorder = FailureRecorder()
    let store = FileTokenStore(fileURL: directory.file("tokens.json"), onFailure: recorder.report)
    #expect(store.tokens == nil)
    #expect(recorder.failures.isEmpty)
  }

  @Test("saved tokens are served at once")
  func roundTrip() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = FileTokenStore(fileURL: directory.file("tokens.json"))
    store.save(Self.tokens(1))
    #expect(store.tokens == Self.tokens(1))
    store.save(Self.tokens(2))
    #expect(store.tokens == Self.tokens(2))
    await store.flush()
  }

  @Test("saved tokens, expiry included, survive a new store on the same file")
  func persistence() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    // No flush: a new store on the path waits for the writes this process has pending there.
    FileTokenStore(fileURL: url).save(Self.tokens(7))
    #expect(FileTokenStore(fileURL: url).tokens == Self.tokens(7))
  }

  @Test("the saved file can be read and written by its owner only")
  func ownerOnlyFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    store.save(Self.tokens())
    await store.flush()
    #expect(try posixPermissions(of: url) == 0o600)
  }

  @Test("missing parent directories are created, usable by their owner only")
  func createsDirectories() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let outer = directory.file("Application Support")
    let inner = outer.appendingPathComponent("Session", isDirectory: true)
    let url = inner.appendingPathComponent("tokens.json")
    let store = FileTokenStore(fileURL: url)
    store.save(Self.tokens())
    await store.flush()
    #expect(FileTokenStore(fileURL: url).tokens == Self.tokens())
    #expect(try posixPermissions(of: outer) == 0o700)
    #expect(try posixPermissions(of: inner) == 0o700)
    #expect(try posixPermissions(of: url) == 0o600)
  }

  @Test("concurrent saves from 100 tasks always leave a whole file, the latest tokens, no temporary files")
  func concurrentSaves() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    // Large tokens (within the size limit) make each write span many pages, so a reader would
    // catch a file in the middle of being written if there ever were one.
    let saved = (1...100).map { Self.tokens($0, padding: 50_000) }

    let snapshots = await FileSnapshots.reading(
      url, during: saved.map { tokens in { store.save(tokens) } }, settle: { await store.flush() })

    #expect(!snapshots.vanished, "the file went missing between two saves")
    for contents in snapshots.contents {
      let tokens = try? JSONDecoder().decode(AuthTokens.self, from: contents)
      #expect(tokens.map(saved.contains) == true, "a reader saw a partial or corrupt file")
    }
    let final = try #require(store.tokens)
    #expect(saved.contains(final))
    #expect(try decodedTokens(at: url) == final, "the file is older than the memory")
    #expect(try directory.entries() == ["tokens.json"])
  }

  @Test("saves, clears and reads from many tasks at once leave memory and file in agreement")
  func concurrentMixedUse() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    await withTaskGroup(of: Void.self) { group in
      for number in 1...100 {
        group.addTask {
          switch number % 3 {
          case 0: store.clear()
          case 1: store.save(Self.tokens(number))
          default: _ = store.tokens
          }
        }
      }
    }
    await store.flush()
    #expect(try decodedTokens(at: url) == store.tokens)
    #expect(try directory.entries().allSatisfy { $0 == "tokens.json" })
  }

  @Test(
    "an unreadable file means signed out, is deleted, and its report quotes nothing of it",
    arguments: DamagedTokenFile.allCases)
  func damagedFile(damage: DamagedTokenFile) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    try damage.contents.write(to: url)
    let recorder = FailureRecorder()

    let store = FileTokenStore(fileURL: url, onFailure: recorder.report)

    #expect(store.tokens == nil)
    #expect(!fileExists(at: url))
    #expect(recorder.failures.map(\.operation) == [.decode])
    #expect(recorder.failures.allSatisfy { !"\($0)".contains("secret") })
  }

  @Test("clear signs out and deletes the file")
  func clearDeletesFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    store.save(Self.tokens())
    await store.flush()
    #expect(fileExists(at: url))
    store.clear()
    #expect(store.tokens == nil)
    await store.flush()
    #expect(!fileExists(at: url))
    #expect(FileTokenStore(fileURL: url).tokens == nil)
    store.clear()  // Clearing again, with no file, is not a failure.
  }

  @Test("a save that cannot be written keeps the tokens in memory and reports no token")
  func unwritableDirectory() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let blocker = directory.file("not-a-directory")
    try Data("plain file".utf8).write(to: blocker)
    let url = blocker.appendingPathComponent("tokens.json")
    let recorder = FailureRecorder()
    let store = FileTokenStore(fileURL: url, onFailure: recorder.report)

    store.save(Self.tokens())

    #expect(store.tokens == Self.tokens())
    await store.flush()
    let failure = try #require(recorder.failures.first)
    #expect(recorder.failures.count == 1)
    #expect(failure.operation == .write)
    #expect(failure.errorNumber == ENOTDIR)
    #expect(failure.path == url.path(percentEncoded: false))
    #expect(!"\(failure)".contains("secret"))
    store.clear()
    #expect(store.tokens == nil)
  }

  @Test("a directory in the file's place is refused, means signed out; saves stay in memory, leave no litter")
  func directoryInPlace() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    let recorder = FailureRecorder()
    let store = FileTokenStore(fileURL: url, onFailure: recorder.report)
    #expect(store.tokens == nil)

    store.save(Self.tokens())

    #expect(store.tokens == Self.tokens())
    await store.flush()
    #expect(recorder.failures.map(\.operation) == [.refuse, .remove, .write])
    #expect(try directory.entries() == ["tokens.json"])
  }

  @Test("no description of the store shows a token")
  func descriptionsHideTokens() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let store = FileTokenStore(fileURL: directory.file("tokens.json"))
    store.save(Self.tokens())
    var dumped = ""
    dump(store, to: &dumped)
    let descriptions = [
      store.description, store.debugDescription, String(describing: store), String(reflecting: store),
      dumped,
    ]
    for description in descriptions {
      #expect(!description.contains("secret"), "\(description)")
    }
    #expect(store.description.contains(Redactor.placeholder))
    await store.flush()
  }
}

/// The tokens in the file at `url`, read straight from disk.
func decodedTokens(at url: URL) throws -> AuthTokens? {
  guard fileExists(at: url) else { return nil }
  return try JSONDecoder().decode(AuthTokens.self, from: Data(contentsOf: url))
}

/// Contents that are not a token file, each of which must mean signed out.
enum DamagedTokenFile: CaseIterable, Sendable, CustomTestStringConvertible {
  case noise
  case empty
  case truncatedJSON
  case otherShape
  case missingField

  var contents: Data {
    switch self {
    case .noise:
      noiseBytes(count: 512)
    case .empty:
      Data()
    case .truncatedJSON:
      Data(#"{"accessToken":"access-secret-1","refreshToken":"refresh-sec"#.utf8)
    case .otherShape:
      Data(#"[{"userId":1,"id":1,"title":"secret plans","completed":false}]"#.utf8)
    case .missingField:
      Data(#"{"accessToken":"access-secret-1"}"#.utf8)
    }
  }

  var testDescription: String {
    switch self {
    case .noise: "random bytes"
    case .empty: "an empty file"
    case .truncatedJSON: "truncated JSON"
    case .otherShape: "valid JSON of another shape"
    case .missingField: "a token object without its refresh token"
    }
  }
}
