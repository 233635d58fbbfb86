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
/// Every module of this package uses this one copy. It is `public`, unlike the rest of this
/// module, only so that `withLock` can be `@inlinable`: the other modules then run it specialised
/// for their own values. A `package` function's body is not handed to other modules unless the
/// whole package is built with cross-module optimisation, and unspecialised, every call went
/// through its value's run-time metadata (about 2,000 instructions of a view model's action, a
/// dozen calls). Apps still never see it: no product contains this module, so no app can
/// declare a dependency on it.
public final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched inside `withLock`, between lock and unlock.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  // The mutex already makes every access exclusive; the runtime's own exclusivity check on a
  // class property would add a lookup to every `withLock`, a dozen of them per request.
  @usableFromInline @exclusivity(unchecked) var value: Value

  /// Creates the lock, holding `value`.
  public init(_ value: sending Value) {
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
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock()
    defer { unlock() }
    return try body(&value)
  }

  // Calls, not inlined into `withLock`: the pthread functions would then be part of this
  // module's interface, and every module that imports it would load the C library's module to
  // compile (about seven seconds more for a clean build of the package).
  @usableFromInline
  func lock() {
    pthread_mutex_lock(mutex)
  }

  @usableFromInline
  func unlock() {
    pthread_mutex_unlock(mutex)
  }
}
