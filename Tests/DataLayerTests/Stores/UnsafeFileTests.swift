import DataLayer
import Foundation
import Testing

@Suite("File stores refuse unsafe files", .timeLimit(.minutes(1)))
struct UnsafeFileTests {
  @Test(
    "what is not a regular file within the size limit is refused at once, like a corrupt file, its target untouched",
    arguments: FileStoreKind.allCases, UnsafeFile.allCases)
  func refused(kind: FileStoreKind, unsafe: UnsafeFile) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let trap = try unsafe.install(for: kind, in: directory)
    let recorder = FailureRecorder()

    // Before the fix, a FIFO made this wait for a writer forever and /dev/zero read until the
    // process ran out of memory.
    let url = trap.url
    let opened = await finishing(within: 10) { kind.open(url, onFailure: recorder.report) }
    let store = try #require(opened, "opening the store did not return within 10 s").value

    #expect(store.isEmpty())
    #expect(recorder.failures.map(\.operation) == unsafe.loadFailures)
    #expect(recorder.failures.first?.errorNumber == unsafe.refusalErrorNumber)
    #expect(try trap.isUntouched())
    if unsafe.isReplaceable {
      #expect(itemType(at: trap.url) == nil, "the refused item is deleted like a corrupt file")
    }

    store.saveSample()
    #expect(store.holdsSample())
    await store.flush()

    if unsafe.isReplaceable {
      #expect(recorder.failures.count == unsafe.loadFailures.count)
      #expect(itemType(at: trap.url) == .typeRegular)
      #expect(kind.open(trap.url).holdsSample())
    } else {
      #expect(recorder.failures.dropFirst(unsafe.loadFailures.count).map(\.operation) == [.write])
    }
    #expect(try trap.isUntouched())
  }

  @Test(
    "a link put in the file's place after loading is replaced by the next save, never written through",
    arguments: FileStoreKind.allCases)
  func saveReplacesALink(kind: FileStoreKind) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file(kind.fileName)
    let recorder = FailureRecorder()
    let store = kind.open(url, onFailure: recorder.report)
    let target = directory.file("elsewhere.json")
    let contents = try kind.validFile()
    try contents.write(to: target)
    try FileManager.default.createSymbolicLink(at: url, withDestinationURL: target)

    store.saveSample()
    await store.flush()

    #expect(recorder.failures.isEmpty)
    #expect(try Data(contentsOf: target) == contents)
    #expect(itemType(at: url) == .typeRegular)
    #expect(kind.open(url).holdsSample())
  }

  @Test("a file of exactly the size limit is read", arguments: FileStoreKind.allCases)
  func fileAtTheLimit(kind: FileStoreKind) throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file(kind.fileName)
    try kind.validFile(size: kind.sizeLimit).write(to: url)
    let recorder = FailureRecorder()
    #expect(!kind.open(url, onFailure: recorder.report).isEmpty())
    #expect(recorder.failures.isEmpty)
  }

  @Test("tokens too large to read back are kept in memory only; the older file is deleted, not left stale")
  func oversizeSave() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("tokens.json")
    let recorder = FailureRecorder()
    let store = FileTokenStore(fileURL: url, onFailure: recorder.report)
    store.save(FileTokenStoreTests.tokens(1))
    await store.flush()
    let huge = FileTokenStoreTests.tokens(2, padding: FileTokenStore.maximumFileSize)

    store.save(huge)
    await store.flush()

    #expect(store.tokens == huge)
    #expect(!fileExists(at: url))
    #expect(recorder.failures.map(\.operation) == [.write])
    #expect(recorder.failures.first?.errorNumber == EFBIG)
  }
}

/// Something other than a plain, small, regular file where a store keeps its file.
enum UnsafeFile: CaseIterable, Sendable, CustomTestStringConvertible {
  case fifo
  case symlinkToFIFO
  case symlinkToDevZero
  case directory
  case oversize
  case symlinkToValidFile
  case directoryIsSymlink

  /// Where the store is opened, and how to tell that what the trap points at was not changed.
  struct Trap {
    let url: URL
    let isUntouched: () throws -> Bool
  }

  func install(for kind: FileStoreKind, in directory: TemporaryDirectory) throws -> Trap {
    let url = directory.file(kind.fileName)
    let elsewhere = directory.file("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
    let target = elsewhere.appendingPathComponent(kind.fileName)
    let manager = FileManager.default
    switch self {
    case .fifo:
      try makeFIFO(at: url)
      return Trap(url: url) { true }
    case .symlinkToFIFO:
      try makeFIFO(at: target)
      try manager.createSymbolicLink(at: url, withDestinationURL: target)
      return Trap(url: url) { itemType(at: target) == .typeUnknown || isFIFO(target) }
    case .symlinkToDevZero:
      try manager.createSymbolicLink(at: url, withDestinationURL: URL(filePath: "/dev/zero"))
      return Trap(url: url) { true }
    case .directory:
      try manager.createDirectory(at: url, withIntermediateDirectories: false)
      return Trap(url: url) { itemType(at: url) == .typeDirectory }
    case .oversize:
      try kind.validFile(size: kind.sizeLimit + 1).write(to: url)
      return Trap(url: url) { true }
    case .symlinkToValidFile:
      let contents = try kind.validFile()
      try contents.write(to: target)
      try manager.createSymbolicLink(at: url, withDestinationURL: target)
      return Trap(url: url) {
        try Data(contentsOf: target) == contents && itemType(at: target) == .typeRegular
      }
    case .directoryIsSymlink:
      let contents = try kind.validFile()
      try contents.write(to: target)
      let linked = directory.file("linked")
      try manager.createSymbolicLink(at: linked, withDestinationURL: elsewhere)
      return Trap(url: linked.appendingPathComponent(kind.fileName)) {
        try Data(contentsOf: target) == contents
          && manager.contentsOfDirectory(atPath: elsewhere.path(percentEncoded: false)) == [kind.fileName]
      }
    }
  }

  /// Whether the store can delete the item and write its own file in its place.
  var isReplaceable: Bool { self != .directory && self != .directoryIsSymlink }

  /// What the store reports while loading: the refusal, and a failed delete where it cannot
  /// delete (a directory, a file behind a linked directory).
  var loadFailures: [StorageFailure.Operation] { isReplaceable ? [.refuse] : [.refuse, .remove] }

  /// `ELOOP` where the system refused to follow a link, `nil` where the store refused the type
  /// or size of what it opened.
  var refusalErrorNumber: Int32? {
    switch self {
    case .symlinkToFIFO, .symlinkToDevZero, .symlinkToValidFile, .directoryIsSymlink: ELOOP
    case .fifo, .directory, .oversize: nil
    }
  }

  var testDescription: String {
    switch self {
    case .fifo: "a FIFO"
    case .symlinkToFIFO: "a symlink to a FIFO"
    case .symlinkToDevZero: "a symlink to /dev/zero"
    case .directory: "a directory"
    case .oversize: "a valid file one byte over the limit"
    case .symlinkToValidFile: "a symlink to a valid file elsewhere"
    case .directoryIsSymlink: "a symlink in place of the file's directory"
    }
  }
}

private func makeFIFO(at url: URL) throws {
  guard mkfifo(url.path(percentEncoded: false), 0o600) == 0 else {
    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
  }
}

private func isFIFO(_ url: URL) -> Bool {
  var status = stat()
  return lstat(url.path(percentEncoded: false), &status) == 0 && status.st_mode & S_IFMT == S_IFIFO
}
