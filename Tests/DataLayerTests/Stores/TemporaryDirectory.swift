import Foundation

/// A fresh directory under the system's temporary directory, for one test; the test removes it.
///
/// A test that saves to a file store in it flushes the store before it ends: the store writes
/// behind, creating missing directories, so a write still pending when the directory is removed
/// puts it back, with the file, and leaves it in /tmp.
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("DataLayerTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// The URL of `name` in this directory; nothing is created.
  func file(_ name: String) -> URL {
    url.appendingPathComponent(name, isDirectory: false)
  }

  /// The names in this directory, sorted, including hidden ones (temporary files are hidden).
  func entries() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path(percentEncoded: false)).sorted()
  }

  func remove() {
    // A leftover directory in /tmp is not worth failing a test for.
    try? FileManager.default.removeItem(at: url)
  }
}

/// The permission bits of the item at `url` (`0o600` for a file only its owner can use).
func posixPermissions(of url: URL) throws -> Int? {
  let attributes = try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
  return attributes[.posixPermissions] as? Int
}

/// Whether there is anything at `url`.
func fileExists(at url: URL) -> Bool {
  FileManager.default.fileExists(atPath: url.path(percentEncoded: false))
}

/// `count` bytes that are not JSON, the same on every run (a linear congruential sequence after a
/// byte that cannot start UTF-8 text).
func noiseBytes(count: Int) -> Data {
  var state: UInt32 = 0x2545_F491
  var bytes: [UInt8] = [0xFF]
  while bytes.count < count {
    state = state &* 1_664_525 &+ 1_013_904_223
    bytes.append(UInt8(truncatingIfNeeded: state >> 24))
  }
  return Data(bytes)
}
