extension String {
  /// Calls `body` with the string's UTF-8 bytes in one buffer: its own storage, which a native
  /// Swift string always has, or a copy when it has none.
  ///
  /// The checks of the request line and headers run on every request, and a loop over a buffer
  /// is much cheaper than one over `utf8`'s iterator.
  func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(utf8).withUnsafeBufferPointer(body)
  }
}
