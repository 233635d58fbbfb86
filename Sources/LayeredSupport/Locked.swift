#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that is only read or changed while holding a lock.
///
/// It has the shape of `Synchronization.Mutex` (`withLock`, `sending` values) but is built on
/// `pthread_mutex_t`. On Linux, `Mutex` waits with raw futex calls that ThreadSanitizer cannot
/// see, so every access through it is reported as a race; a pthread mutex is intercepted by the
/// sanitizer, which keeps `swift test --sanitize=thread` meaningful.
///
/// `package` visibility: every module of this package uses this one copy; apps that depend on
/// the library never see it.
package final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched inside `withLock`, between lock and unlock.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // The mutex already makes every access exclusive; the runtime's own exclusivity check on a
  // class property would add a lookup to every `withLock`, a dozen of them per request.
  @exclusivity(unchecked) private var value: Value

  package init(_ value: sending Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value. Not reentrant: calling `withLock` on the
  /// same instance from inside `body` deadlocks.
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
