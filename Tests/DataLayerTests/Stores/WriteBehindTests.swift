import DataLayer
import Foundation
import NetworkLayer
import Testing

@Suite("File stores write behind", .timeLimit(.minutes(1)))
struct WriteBehindTests {
  @Test("save and clear return and read back at once while the disk writer is stuck; a burst is one write")
  func saveNeverWaitsForTheDisk() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // Every write here fails (the "directory" is a file), and the first failure's report holds
    // the store's writer until the test lets it go: the writer is stuck as if in a slow fsync.
    let blocker = directory.file("not-a-directory")
    try Data("plain file".utf8).write(to: blocker)
    let gate = WriterGate()
    defer { gate.release() }
    let store = FileTokenStore(fileURL: blocker.appendingPathComponent("tokens.json"), onFailure: gate.report)
    store.save(FileTokenStoreTests.tokens(1))
    await gate.writerIsStuck()

    let burst = await finishing(within: 10) {
      for number in 2...101 { store.save(FileTokenStoreTests.tokens(number)) }
      let afterSaves = store.tokens
      store.clear()
      let afterClear = store.tokens
      store.save(FileTokenStoreTests.tokens(102))
      return [afterSaves, afterClear, store.tokens]
    }
    gate.release()
    await store.flush()

    let finished = try #require(burst, "save waited for the stuck writer")
    #expect(finished.value == [FileTokenStoreTests.tokens(101), nil, FileTokenStoreTests.tokens(102)])
    #expect(finished.seconds < 2)
    // 101 saves and a clear while the writer was stuck were written once, not 102 times.
    #expect(gate.failures.count == 2)
  }

  @Test("flush returns once the file holds the last save, read from disk")
  func flushMakesTheLastSaveDurable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    for number in 1...50 { store.save(FileTokenStoreTests.tokens(number)) }

    await store.flush()

    #expect(try decodedTokens(at: url) == FileTokenStoreTests.tokens(50))
    #expect(try directory.entries() == ["tokens.json"])
  }

  @Test("a clear after a save leaves no tokens on disk, and a save after a clear leaves the save")
  func orderIsKept() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)

    store.save(FileTokenStoreTests.tokens(1))
    store.clear()
    await store.flush()
    #expect(!fileExists(at: url))

    store.clear()
    store.save(FileTokenStoreTests.tokens(2))
    await store.flush()
    #expect(try decodedTokens(at: url) == FileTokenStoreTests.tokens(2))

    // Each on its own, so the writer has time to write the save before the clear arrives.
    for number in 3...20 {
      store.save(FileTokenStoreTests.tokens(number))
      if number.isMultiple(of: 4) { await Task.yield() }
    }
    store.clear()
    await store.flush()
    #expect(!fileExists(at: url))
    #expect(try directory.entries().isEmpty)
  }

  @Test("saves from an actor, as the auth interceptor makes them, read back at once and reach the disk")
  func savesFromAnActor() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let store = FileTokenStore(fileURL: url)
    let refresher = Refresher(store: store)

    let readBack = await refresher.rotate(times: 30)

    #expect(readBack == (1...30).map { FileTokenStoreTests.tokens($0) })
    await store.flush()
    #expect(try decodedTokens(at: url) == FileTokenStoreTests.tokens(30))
  }
}

/// Saves and reads tokens synchronously on an actor, the way the auth interceptor does.
private actor Refresher {
  let store: FileTokenStore

  init(store: FileTokenStore) { self.store = store }

  func rotate(times: Int) -> [AuthTokens?] {
    (1...times).map { number in
      store.save(FileTokenStoreTests.tokens(number))
      return store.tokens
    }
  }
}

/// A failure report that holds the store's writer, the first time, until released.
private final class WriterGate: @unchecked Sendable {
  // @unchecked: `recorded` is only touched while holding `lock`; the semaphore and the stream's
  // continuation are thread-safe.
  private let lock = NSLock()
  private var recorded: [StorageFailure] = []
  private let released = DispatchSemaphore(value: 0)
  private let stuck = AsyncStream<Void>.makeStream()

  var failures: [StorageFailure] { lock.withLock { recorded } }

  var report: @Sendable (StorageFailure) -> Void {
    { [self] failure in
      let isFirst = lock.withLock {
        recorded.append(failure)
        return recorded.count == 1
      }
      guard isFirst else { return }
      stuck.continuation.yield()
      released.wait()
    }
  }

  /// Returns once the writer is held.
  func writerIsStuck() async {
    for await _ in stuck.stream { return }
  }

  /// Lets the writer go; more calls do nothing harmful (the semaphore is signalled again).
  func release() {
    released.signal()
  }
}
